import { Button, Dropdown, Select, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { DefinitionIcon } from './icons.tsx';
import styles from './PlayerCell.module.css';
import { definitionChoices, definitionName, useShipConfig } from './ship-config.ts';

export interface DefinitionSelectProps {
  orgId: string;
  shipId: string;
  /** The model playing or chosen; undefined while unknown (shows the placeholder). */
  value: number | undefined;
  onChange(templateId: number): void;
  /** Why the cell plays this definition ("Lowest definition: FBB link, 16-cell grid"), shown as the control's tooltip. */
  reason?: string | undefined;
  /** Where the list opens: the cell, so it also shows while the cell is fullscreen. */
  getPopupContainer(): HTMLElement;
}

/**
 * The ship's definition templates (spec §3 Config); hidden until they are known. In a narrow cell
 * (a 9- or 16-cell grid) the list sits behind an icon so the channel's title keeps the room; the
 * cell's width decides (a CSS container query), whatever the grid.
 */
export function DefinitionSelect({ orgId, shipId, value, onChange, reason, getPopupContainer }: DefinitionSelectProps) {
  const { t, i18n } = useTranslation();
  const { data } = useShipConfig(orgId, shipId);
  if (!data) return null;
  const { choices, defaultModelId } = definitionChoices(data);
  if (choices.length === 0) return null;
  // Until the stream reports its model, the ship's default is what the server will pick.
  const shown = value ?? defaultModelId;
  const groups = new Map<number, { label: string; options: { value: number; label: string }[] }>();
  for (const c of choices) {
    const group = groups.get(c.groupId) ?? { label: definitionName({ displayName: c.groupName, displayNameEn: c.groupNameEn }, i18n.language), options: [] };
    group.options.push({ value: c.model.id, label: definitionName(c.model, i18n.language) });
    groups.set(c.groupId, group);
  }
  const options = groups.size === 1 ? [...groups.values()][0]?.options : [...groups.values()];
  const current = choices.find((c) => c.model.id === shown);
  return (
    // Below the control: the cell clips what would open above its title bar.
    <Tooltip title={reason && current ? `${definitionName(current.model, i18n.language)} · ${reason}` : reason} placement="bottom" getPopupContainer={getPopupContainer}>
      <span className={styles.definition} data-definition-reason={reason ?? ''}>
        <span className={styles.definitionWide}>
          <Select<number>
            size="small"
            variant="borderless"
            aria-label={t('playerCell.definition')}
            placeholder={t('playerCell.definition')}
            value={choices.some((c) => c.model.id === shown) ? shown : undefined}
            options={options}
            onChange={onChange}
            getPopupContainer={getPopupContainer}
            popupMatchSelectWidth={false}
            style={{ minWidth: 120 }}
          />
        </span>
        <span className={styles.definitionNarrow}>
          <Dropdown
            trigger={['click']}
            getPopupContainer={getPopupContainer}
            menu={{
              selectable: true,
              selectedKeys: current ? [String(current.model.id)] : [],
              items: choices.map((c) => ({ key: String(c.model.id), label: definitionName(c.model, i18n.language) })),
              onClick: ({ key }) => onChange(Number(key)),
            }}
          >
            <Button
              size="small"
              type="text"
              aria-label={t('playerCell.definition')}
              // With a reason the tooltip names the model too; without one the button's own title does.
              title={reason ? undefined : current ? definitionName(current.model, i18n.language) : t('playerCell.definition')}
              icon={<DefinitionIcon />}
            />
          </Dropdown>
        </span>
      </span>
    </Tooltip>
  );
}

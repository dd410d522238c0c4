import { useState } from 'react';
import { ArrowDownOutlined, ArrowUpOutlined, CloseOutlined, HolderOutlined } from '@ant-design/icons';
import { Button, Empty, Tooltip } from 'antd';
import { useCarouselTranslation as useTranslation } from '../texts.ts';
import { type ChosenChannel, moveItem } from '../editor.ts';
import styles from '../carousel.module.css';

/**
 * The carousel's channels in order: dragged to a new place (native HTML5 drag and drop), or moved
 * with the up / down buttons (keyboard users), or removed.
 */
export function ChannelOrderList({ channels, onChange }: { channels: readonly ChosenChannel[]; onChange(channels: ChosenChannel[]): void }) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState<number>();
  const [over, setOver] = useState<number>();
  if (channels.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('carousel.editor.noneChosen')} />;
  const end = () => {
    setDragging(undefined);
    setOver(undefined);
  };
  return (
    <ol className={styles.chosen} aria-label={t('carousel.editor.chosen')} data-testid="chosen-channels">
      {channels.map((c, i) => (
        <li
          key={c.channelId}
          className={styles.chosenItem}
          draggable
          data-chosen-channel={c.channelId}
          data-dragging={String(dragging === i)}
          data-drop-target={String(over === i && dragging !== undefined && dragging !== i)}
          onDragStart={(e) => {
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', c.channelId);
            setDragging(i);
          }}
          onDragOver={(e) => {
            if (dragging === undefined) return;
            e.preventDefault();
            e.dataTransfer.dropEffect = 'move';
            setOver(i);
          }}
          onDrop={(e) => {
            e.preventDefault();
            if (dragging !== undefined) onChange(moveItem(channels, dragging, i));
            end();
          }}
          onDragEnd={end}
        >
          <HolderOutlined aria-hidden />
          <span className={styles.chosenIndex}>{i + 1}</span>
          <span className={styles.chosenName} title={`${c.channelName} · ${c.shipDisplayName}`}>
            {c.channelName}
            {c.shipDisplayName ? <span style={{ opacity: 0.6, marginInlineStart: 6 }}>{c.shipDisplayName}</span> : null}
          </span>
          <Tooltip title={t('carousel.editor.moveUp')}>
            <Button size="small" type="text" icon={<ArrowUpOutlined />} aria-label={`${t('carousel.editor.moveUp')} ${c.channelName}`} disabled={i === 0} onClick={() => onChange(moveItem(channels, i, i - 1))} />
          </Tooltip>
          <Tooltip title={t('carousel.editor.moveDown')}>
            <Button
              size="small"
              type="text"
              icon={<ArrowDownOutlined />}
              aria-label={`${t('carousel.editor.moveDown')} ${c.channelName}`}
              disabled={i === channels.length - 1}
              onClick={() => onChange(moveItem(channels, i, i + 1))}
            />
          </Tooltip>
          <Tooltip title={t('carousel.editor.remove')}>
            <Button size="small" type="text" icon={<CloseOutlined />} aria-label={`${t('carousel.editor.remove')} ${c.channelName}`} onClick={() => onChange(channels.filter((x) => x.channelId !== c.channelId))} />
          </Tooltip>
        </li>
      ))}
    </ol>
  );
}

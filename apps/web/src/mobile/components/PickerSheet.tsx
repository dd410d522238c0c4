import type { ReactNode } from 'react';
import { CheckList, Popup } from 'antd-mobile';
import styles from '../mobile.module.css';

export interface PickerOption {
  value: string;
  label: ReactNode;
  /** Indentation level (sub-organisations under their parent). */
  depth?: number;
}

export interface PickerSheetProps {
  title: string;
  open: boolean;
  value: string | undefined;
  options: readonly PickerOption[];
  onPick(value: string): void;
  onClose(): void;
}

/**
 * A bottom sheet with a one-choice list: big rows for a thumb. Destroyed when closed, so rows
 * that subscribe to live state (ship links) do so only while shown.
 */
export function PickerSheet({ title, open, value, options, onPick, onClose }: PickerSheetProps) {
  return (
    <Popup visible={open} onMaskClick={onClose} onClose={onClose} destroyOnClose bodyStyle={{ maxHeight: '70vh', overflowY: 'auto', borderRadius: '12px 12px 0 0' }}>
      <div role="dialog" aria-label={title}>
        <div className={styles.sheetTitle}>{title}</div>
        <OneChoiceList value={value} options={options} onPick={onPick} onClose={onClose} />
      </div>
    </Popup>
  );
}

/** The one-choice list of a sheet: a tap picks the row and closes the sheet. */
export function OneChoiceList({ value, options, onPick, onClose }: Pick<PickerSheetProps, 'value' | 'options' | 'onPick' | 'onClose'>) {
  return (
    <CheckList
      value={value ? [value] : []}
      onChange={(values) => {
        const next = values[0];
        if (typeof next === 'string') onPick(next);
        onClose();
      }}
    >
      {options.map((option) => (
        <CheckList.Item key={option.value} value={option.value} data-value={option.value} style={{ paddingInlineStart: 12 + (option.depth ?? 0) * 16 }}>
          {option.label}
        </CheckList.Item>
      ))}
    </CheckList>
  );
}

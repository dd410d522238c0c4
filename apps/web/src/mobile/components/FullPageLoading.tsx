import { SpinLoading } from 'antd-mobile';

/** A centred spinner with what is going on (route guard, /jump). */
export function FullPageLoading({ tip }: { tip: string }) {
  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 16 }} role="status">
      <SpinLoading color="primary" />
      <span>{tip}</span>
    </div>
  );
}

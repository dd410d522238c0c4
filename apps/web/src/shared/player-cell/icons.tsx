/**
 * The few icons of the cell toolbar, inline so the app does not depend on @ant-design/icons
 * (not a declared dependency of apps/web). 1em boxes in currentColor, like antd's own icons.
 */
const base = { width: '1em', height: '1em', fill: 'currentColor', 'aria-hidden': true, focusable: false } as const;

export function CloseIcon() {
  return (
    <svg viewBox="0 0 16 16" {...base}>
      <path d="M3.3 2.3 8 7l4.7-4.7 1 1L9 8l4.7 4.7-1 1L8 9l-4.7 4.7-1-1L7 8 2.3 3.3z" />
    </svg>
  );
}

export function FullscreenIcon({ exit = false }: { exit?: boolean }) {
  return (
    <svg viewBox="0 0 16 16" {...base}>
      {exit ? (
        <path d="M5 1h1.5v5.5H1V5h4zM11 1H9.5v5.5H15V5h-4zM5 15h1.5V9.5H1V11h4zM11 15H9.5V9.5H15V11h-4z" />
      ) : (
        <path d="M1 1h5v1.5H2.5V6H1zM15 1h-5v1.5h3.5V6H15zM1 15h5v-1.5H2.5V10H1zM15 15h-5v-1.5h3.5V10H15z" />
      )}
    </svg>
  );
}

export function StatsIcon() {
  return (
    <svg viewBox="0 0 16 16" {...base}>
      <path d="M2 14V9h2.5v5zM6.75 14V5h2.5v9zM11.5 14V2H14v12z" />
    </svg>
  );
}

export function SoundIcon({ muted }: { muted: boolean }) {
  return (
    <svg viewBox="0 0 16 16" {...base}>
      <path d="M2 6h2.5L8 3v10L4.5 10H2z" />
      {muted ? (
        <path d="m10.2 5.6 1.8 1.8 1.8-1.8.9.9-1.8 1.8 1.8 1.8-.9.9-1.8-1.8-1.8 1.8-.9-.9 1.8-1.8-1.8-1.8z" />
      ) : (
        <path d="M10 5.2a3.5 3.5 0 0 1 0 5.6l-.8-1a2.2 2.2 0 0 0 0-3.6zM11.6 3a6.2 6.2 0 0 1 0 10l-.8-1a4.9 4.9 0 0 0 0-8z" />
      )}
    </svg>
  );
}

/** Definition: a screen with three bars of rising height (the picture's quality). */
export function DefinitionIcon() {
  return (
    <svg viewBox="0 0 16 16" {...base}>
      <path d="M1 2h14v10H1zm1.5 1.5v7h11v-7zM4 9h1.5v1H4zm3-2h1.5v3H7zm3-2h1.5v5H10zM5 13.5h6V15H5z" />
    </svg>
  );
}

export function MoreIcon() {
  return (
    <svg viewBox="0 0 16 16" {...base}>
      <path d="M2 6.5h3v3H2zM6.5 6.5h3v3h-3zM11 6.5h3v3h-3z" />
    </svg>
  );
}

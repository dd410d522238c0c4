/**
 * The public face of link policies (issue 19 item 4): the settings screen where an organisation's
 * managers set, per link type, the definition live cells ask for. The app shell loads it lazily.
 */
export * from './components/LinkPolicyDialog.tsx';

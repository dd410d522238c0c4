/** The public face of the talkback feature: the app shell imports only from here. */
export { TALK_CONTROL } from './components/TalkButton.tsx';
export { MobileTalkButton } from './components/MobileTalkButton.tsx';

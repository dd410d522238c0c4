export { shipFailureCodeText, shipFailureOf, shipFailureText } from './ship-failure.ts';

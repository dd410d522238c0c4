/** The token the harness accepts on the media socket (anything else gets `unauthorized`). */
export const HARNESS_TOKEN = 'e2e-token';

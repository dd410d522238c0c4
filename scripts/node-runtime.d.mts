/** Types of node-runtime.mjs (the Node.js the project runs on). */
export function isSupportedNode(version: string): boolean;
export function supportedNode(say?: (msg: string) => void): string;
export function envFor(node: string, env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function onSupportedNode(script: string, say: (msg: string) => void): Promise<void>;

/** Texts of the session screens (/jump, /repeatLogin, route guard), merged under `session`. */
export const sessionZhCN = {
  checking: '正在验证登录状态...',
  jump: {
    checking: '正在进入系统...',
    /** Spec §8 gives the English wording for a bad token; in Chinese it is said in Chinese. */
    failed: '身份验证失败，请联系管理员',
    missingToken: '链接中缺少登录令牌',
    toSignIn: '前往登录',
  },
  repeatLogin: {
    title: '账号已在其他地方登录',
    description: '您的账号已在其他设备或浏览器登录，当前会话已结束。如非本人操作，请尽快修改密码。',
    toSignIn: '重新登录',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

export const sessionEn: Widen<typeof sessionZhCN> = {
  checking: 'Checking your sign-in...',
  jump: {
    checking: 'Entering the system...',
    failed: 'Authentication failed. Please contact administrator',
    missingToken: 'The link carries no sign-in token',
    toSignIn: 'Go to sign-in',
  },
  repeatLogin: {
    title: 'Your account signed in elsewhere',
    description: 'Your account was signed in on another device or browser, so this session has ended. If this was not you, change your password soon.',
    toSignIn: 'Sign in again',
  },
};

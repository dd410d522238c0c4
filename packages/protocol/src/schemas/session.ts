import { Type, type Static } from 'typebox';

export const LogonBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64, description: 'Log-on name' }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
);
export type LogonBody = Static<typeof LogonBody>;

export const UserInfo = Type.Object({
  id: Type.String(),
  username: Type.String(),
  displayName: Type.String(),
  /** Role key; the header shows it as "Role: Manager" / 管理员. */
  role: Type.String(),
  /** Organisations the user belongs to (each with its sub-organisations). */
  orgIds: Type.Array(Type.String()),
});
export type UserInfo = Static<typeof UserInfo>;

export const LogonData = Type.Object({
  token: Type.String(),
  /** Epoch milliseconds at which the token stops being accepted. */
  expiresAt: Type.Integer(),
  user: UserInfo,
});
export type LogonData = Static<typeof LogonData>;

export const ValidUserQuery = Type.Object({
  userid: Type.String({ minLength: 1, maxLength: 64 }),
});

export const ValidTokenQuery = Type.Object({
  token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
});

export const HeartbeatData = Type.Object({
  serverTime: Type.Integer(),
  expiresAt: Type.Integer(),
});
export type HeartbeatData = Static<typeof HeartbeatData>;

import { useMutation } from '@tanstack/react-query';
import { COOKIES, type LogonBody, type LogonData } from '@ship-cctv/protocol';
import { apiClient, type ApiError } from '../../../lib/api-client.ts';
import { writeCookie } from '../../../lib/cookies.ts';

/** `POST /api/v1/sys/logon` (spec §7). */
export function logon(body: LogonBody): Promise<LogonData> {
  return apiClient.post<LogonData>('/sys/logon', body, { sessionless: true });
}

export function useLogon() {
  return useMutation<LogonData, ApiError, LogonBody>({
    mutationFn: logon,
    // The server sets the cookie too; writing it here keeps sign-in working when a proxy drops Set-Cookie.
    onSuccess: (data) => writeCookie(COOKIES.token, data.token, { expires: new Date(data.expiresAt) }),
  });
}

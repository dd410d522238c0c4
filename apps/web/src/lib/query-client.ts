import { QueryClient } from '@tanstack/react-query';

/** React Query defaults of both apps (desktop and mobile). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The api client already waits up to 40 s per call; retrying on top would keep a user waiting minutes.
      queries: { retry: 1, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

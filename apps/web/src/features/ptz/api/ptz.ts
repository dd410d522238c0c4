import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PtzCommandAnswer, PtzPresetView } from '@ship-cctv/protocol';
import { apiClient } from '../../../lib/api-client.ts';

/** The camera a PTZ call steers. */
export interface PtzTarget {
  shipId: string;
  cameraId: string;
}

export interface PtzSpeeds {
  pan: number;
  tilt: number;
  zoom: number;
}

const base = (t: PtzTarget) => `/cctv/ptz/${encodeURIComponent(t.shipId)}/${encodeURIComponent(t.cameraId)}`;

/** `POST …/move`: moves until the next command, or stops by itself after timeoutMs. */
export function ptzMove(target: PtzTarget, speeds: PtzSpeeds, timeoutMs: number): Promise<PtzCommandAnswer> {
  return apiClient.post<PtzCommandAnswer>(`${base(target)}/move`, { ...speeds, timeoutMs });
}

export function ptzStop(target: PtzTarget): Promise<PtzCommandAnswer> {
  return apiClient.post<PtzCommandAnswer>(`${base(target)}/stop`);
}

const presetsKey = (t: PtzTarget) => ['ptz', 'presets', t.shipId, t.cameraId];

/** The camera's presets: asked over the ship's link when the list opens, not polled. */
export function usePtzPresets(target: PtzTarget, enabled: boolean) {
  return useQuery({
    queryKey: presetsKey(target),
    queryFn: () => apiClient.get<PtzPresetView[]>(`${base(target)}/presets`),
    enabled,
    staleTime: 30_000,
    retry: false,
  });
}

export function useSetPreset(target: PtzTarget) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiClient.post<PtzPresetView>(`${base(target)}/presets`, { name }),
    onSuccess: () => client.invalidateQueries({ queryKey: presetsKey(target) }),
  });
}

export function useGotoPreset(target: PtzTarget) {
  return useMutation({ mutationFn: (presetId: string) => apiClient.post<PtzCommandAnswer>(`${base(target)}/presets/${encodeURIComponent(presetId)}/goto`) });
}

export function useDeletePreset(target: PtzTarget) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (presetId: string) => apiClient.del<null>(`${base(target)}/presets/${encodeURIComponent(presetId)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: presetsKey(target) }),
  });
}

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PTZ_PRESETS_MAX, type PtzPreset } from '@ship-cctv/protocol';
import { PtzError } from '@ship-cctv/agent';
import { type PtzPosition, clampPosition } from './scene-window.ts';

export interface StoredPreset extends PtzPreset {
  position: PtzPosition;
}

/**
 * The synthetic PTZ camera's presets, kept on the ship in one small JSON file per camera
 * (`<dataDir>/ptz/<camera>.json`), written through a temporary name and a rename at every change,
 * so a restart, a crash or a power cut keeps them whole. Without a file they live in memory.
 */
export class PresetStore {
  private presets: StoredPreset[] = [];
  private nextId = 1;

  constructor(private readonly file: string | undefined) {
    if (!file) return;
    mkdirSync(dirname(file), { recursive: true });
    const read = readPresets(file);
    this.presets = read.presets;
    this.nextId = read.nextId;
  }

  list(): PtzPreset[] {
    return this.presets.map(({ presetId, name }) => ({ presetId, name }));
  }

  get(presetId: string): StoredPreset | undefined {
    return this.presets.find((p) => p.presetId === presetId);
  }

  /** A new preset (no id), or the one named by `presetId` moved here and renamed. */
  set(name: string, position: PtzPosition, presetId?: string): PtzPreset {
    const existing = presetId !== undefined ? this.get(presetId) : undefined;
    if (presetId !== undefined && !existing) throw new PtzError('notFound', `no preset ${presetId}`);
    if (!existing && this.presets.length >= PTZ_PRESETS_MAX) throw new PtzError('full', `the camera holds ${PTZ_PRESETS_MAX} presets already`);
    const preset: StoredPreset = { presetId: existing?.presetId ?? `p${this.nextId++}`, name, position: clampPosition(position) };
    this.presets = existing ? this.presets.map((p) => (p === existing ? preset : p)) : [...this.presets, preset];
    this.save();
    return { presetId: preset.presetId, name };
  }

  remove(presetId: string): void {
    if (!this.get(presetId)) throw new PtzError('notFound', `no preset ${presetId}`);
    this.presets = this.presets.filter((p) => p.presetId !== presetId);
    this.save();
  }

  private save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ nextId: this.nextId, presets: this.presets }));
    renameSync(tmp, this.file);
  }
}

function readPresets(file: string): { presets: StoredPreset[]; nextId: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return { presets: [], nextId: 1 };
  }
  const raw = (parsed ?? {}) as { presets?: unknown; nextId?: unknown };
  const presets = (Array.isArray(raw.presets) ? raw.presets : []).filter(isStoredPreset).map((p) => ({ ...p, position: clampPosition(p.position) }));
  const highest = Math.max(0, ...presets.map((p) => Number(/^p(\d+)$/.exec(p.presetId)?.[1] ?? 0)));
  const nextId = typeof raw.nextId === 'number' && Number.isInteger(raw.nextId) ? Math.max(raw.nextId, highest + 1) : highest + 1;
  return { presets, nextId };
}

function isStoredPreset(v: unknown): v is StoredPreset {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Partial<StoredPreset>;
  const pos = p.position;
  return (
    typeof p.presetId === 'string' &&
    typeof p.name === 'string' &&
    typeof pos === 'object' &&
    pos !== null &&
    [pos.x, pos.y, pos.zoom].every((n) => typeof n === 'number' && Number.isFinite(n))
  );
}

import type { CameraEventSettings, Polygon } from '@ship-cctv/protocol';

/**
 * A camera's zones and masks laid on the analysis grid: for every cell, whether it is masked and
 * which zone (index + 1, 0 for none) holds it. Polygons are in fractions of the picture, so the
 * same settings fit whatever size the picture is analysed at; a cell belongs to a polygon when its
 * centre is inside it.
 */
export interface RegionMap {
  cols: number;
  rows: number;
  masked: Uint8Array;
  /** Zone index + 1 per cell; 0: in no zone. */
  zone: Uint8Array;
  zoneNames: string[];
}

/** Whether point (x, y) lies inside the polygon (even-odd rule). */
export function insidePolygon(x: number, y: number, polygon: Polygon): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i] as [number, number];
    const [xj, yj] = polygon[j] as [number, number];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function regionMap(settings: Pick<CameraEventSettings, 'zones' | 'masks'>, cols: number, rows: number): RegionMap {
  const masked = new Uint8Array(cols * rows);
  const zone = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    const y = (r + 0.5) / rows;
    for (let c = 0; c < cols; c++) {
      const x = (c + 0.5) / cols;
      const i = r * cols + c;
      if (settings.masks.some((m) => insidePolygon(x, y, m))) masked[i] = 1;
      const z = settings.zones.findIndex((zn) => insidePolygon(x, y, zn.polygon));
      zone[i] = z + 1;
    }
  }
  return { cols, rows, masked, zone, zoneNames: settings.zones.map((z) => z.name) };
}

/** The zone a point of the picture (fractions) is in, or undefined; `null` when the camera has no zones. */
export function zoneAt(settings: Pick<CameraEventSettings, 'zones'>, x: number, y: number): string | undefined | null {
  if (settings.zones.length === 0) return null;
  return settings.zones.find((z) => insidePolygon(x, y, z.polygon))?.name;
}

/** Whether a point of the picture (fractions) is masked. */
export function maskedAt(settings: Pick<CameraEventSettings, 'masks'>, x: number, y: number): boolean {
  return settings.masks.some((m) => insidePolygon(x, y, m));
}

import type { Ship } from '@ship-cctv/protocol';

/**
 * A ship's name for a picture in the page's language: its English name in English, its Chinese
 * name in Chinese, each falling back on the other (and on the name the picture carries when the
 * ship is not in the organisation tree on screen).
 */
export function pictureShipName(ship: Pick<Ship, 'name' | 'enName'> | undefined, pictureShipName: string, language: string): string {
  const en = ship?.enName.trim();
  const zh = ship?.name.trim() || pictureShipName;
  return language === 'en' ? en || zh : zh || en || pictureShipName;
}

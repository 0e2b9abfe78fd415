import {
  MIN_CENTRE_MM,
  MIN_EDGE_MM,
  decentration,
  effectiveDiameter,
  formatMm,
  framePd,
  lensThickness,
  sagitta,
  surfaceRadius,
} from '@/utils/lens-thickness';

// A 52-18 frame: frame PD 70 mm. A shopper with a PD of 64 mm: each optical centre moves 3 mm inwards.
const frame = { lensWidth: 52, bridge: 18 };

describe('the geometry, by hand', () => {
  it('frame PD, decentration and effective diameter', () => {
    expect(framePd(frame)).toBe(70);
    expect(decentration(frame, 64)).toBe(3);
    expect(decentration(frame, 74)).toBe(2);
    // 52 + 2 × 3
    expect(effectiveDiameter(frame, 64)).toBe(58);
    expect(effectiveDiameter(frame, 70)).toBe(52);
  });

  it('the surface radius r = (n − 1) / |P| in millimetres', () => {
    // 0.50 / 6 m = 83.333 mm; 0.67 / 6 m = 111.667 mm; 0.74 / 4 m = 185 mm
    expect(surfaceRadius(-6, 1.5)).toBeCloseTo(83.333, 3);
    expect(surfaceRadius(-6, 1.67)).toBeCloseTo(111.667, 3);
    expect(surfaceRadius(4, 1.74)).toBeCloseTo(185, 6);
    expect(surfaceRadius(0, 1.5)).toBe(Number.POSITIVE_INFINITY);
  });

  it('the sagitta s = r − √(r² − h²)', () => {
    // r 83.333, h 29: √(6944.44 − 841) = √6103.44 = 78.125, s = 5.208
    expect(sagitta(83.3333, 29)).toBeCloseTo(5.208, 2);
    // r 100, h 60: 100 − 80 = 20 exactly
    expect(sagitta(100, 60)).toBeCloseTo(20, 9);
    expect(sagitta(Number.POSITIVE_INFINITY, 29)).toBe(0);
    // a half-width past the radius is a hemisphere: s = r
    expect(sagitta(20, 29)).toBe(20);
  });
});

describe('a -6.00 shopper (PD 64) in a 52-18 frame', () => {
  it('1.50: edge 1.5 + 5.208 = 6.7 mm', () => {
    const t = lensThickness(-6, 1.5, frame, 64);
    expect(t.centre).toBe(MIN_CENTRE_MM);
    expect(t.edge).toBeCloseTo(6.708, 2);
  });

  it('1.67: r 111.667, √(12469.4 − 841) = 107.835, s 3.832: edge 5.3 mm', () => {
    const t = lensThickness(-6, 1.67, frame, 64);
    expect(t.sagitta).toBeCloseTo(3.832, 2);
    expect(t.edge).toBeCloseTo(5.332, 2);
    expect(formatMm(t.edge)).toBe('5.3 mm');
  });

  it('1.74: r 123.333, √(15211.1 − 841) = 119.875, s 3.458: edge 5.0 mm', () => {
    expect(lensThickness(-6, 1.74, frame, 64).edge).toBeCloseTo(4.958, 2);
  });

  it('every higher index is thinner at the edge, 1.67 by more than a millimetre against 1.50', () => {
    const edges = [1.5, 1.56, 1.61, 1.67, 1.74].map((index) => lensThickness(-6, index, frame, 64).edge);
    for (let at = 1; at < edges.length; at += 1) expect(edges[at]).toBeLessThan(edges[at - 1]);
    expect(edges[0] - edges[3]).toBeGreaterThan(1.3);
  });

  it('a PD matching the frame needs no decentration and a thinner edge', () => {
    // h 26: s = 83.333 − √(6944.44 − 676) = 83.333 − 79.173 = 4.160
    expect(lensThickness(-6, 1.5, frame, 70).edge).toBeCloseTo(MIN_CENTRE_MM + 4.16, 2);
  });
});

describe('plus lenses', () => {
  it('+4.00 at 1.50 in a 52-18 frame, PD 70: centre 1 + (125 − √(15625 − 676)) = 1 + 2.735', () => {
    const t = lensThickness(4, 1.5, frame, 70);
    expect(t.edge).toBe(MIN_EDGE_MM);
    expect(t.centre).toBeCloseTo(3.735, 2);
  });

  it('plano: the minimum edge and no sagitta', () => {
    expect(lensThickness(0, 1.5, frame, 64)).toEqual({ edge: MIN_EDGE_MM, centre: MIN_EDGE_MM, sagitta: 0 });
  });
});

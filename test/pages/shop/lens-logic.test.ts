import { emptyForm, readForm, serverFieldError } from '@/features/lens/prescription-form';
import { priceLines, totalOf } from '@/features/lens/pricing';
import { recommendedIndex, strongestPower, thicknessHint } from '@/features/lens/thickness';
import type { EyeRx } from '../../../types/api';
import { makeGoods } from './support';

const eye = (sph: number, cyl: number | null = null): EyeRx => ({
  sph,
  cyl,
  axis: cyl ? 90 : null,
  add: null,
  prism: null,
  base: null,
});

describe('lens thickness hint', () => {
  it('takes the strongest meridian of either eye', () => {
    expect(strongestPower(eye(-3.75, -0.5), eye(-2))).toBe(-4.25);
    expect(strongestPower(eye(1.5, 1), eye(-2))).toBe(2.5);
    expect(strongestPower(eye(0), eye(0))).toBe(0);
  });

  it('recommends the index by the boundaries of the lens indexes', () => {
    expect([2, 2.25, 3, 4.5, 4.75, 6, 8].map(recommendedIndex)).toEqual([1.5, 1.56, 1.56, 1.61, 1.67, 1.67, 1.74]);
    expect(recommendedIndex(-6.25)).toBe(1.74);
  });

  it('warns when the chosen index is below the recommended one', () => {
    const thin = { thickness_id: 3, index: 1.61, name: 'Thin 1.61', description: '', price: 39 };
    const standard = { thickness_id: 1, index: 1.5, name: 'Standard 1.50', description: '', price: 0 };
    expect(thicknessHint(eye(-5), eye(-1), standard)).toBe(
      'Your strongest power is -5.00: we recommend index 1.67 or higher. 1.50 lenses will look thick at the edges.',
    );
    expect(thicknessHint(eye(2.25), eye(1), thin)).toBe(
      'Your strongest power is +2.25: we recommend index 1.56 or higher. Thin 1.61 suits your prescription.',
    );
  });
});

describe('prescription form', () => {
  it('turns the typed text into the prescription the server takes', () => {
    const form = {
      ...emptyForm(),
      od: { ...emptyForm().od, sph: '+1.25', cyl: '-0.50', axis: '180' },
      os: { ...emptyForm().os, sph: '-0.75' },
      pd: '62.5',
    };
    expect(readForm(form, false)).toEqual({
      input: {
        name: 'My prescription',
        od: { sph: 1.25, cyl: -0.5, axis: 180, add: null, prism: null, base: null },
        os: { sph: -0.75, cyl: null, axis: null, add: null, prism: null, base: null },
        pd: { kind: 'single', value: 62.5 },
        image_url: null,
      },
    });
  });

  it('names each field to fix', () => {
    const form = {
      ...emptyForm(),
      name: ' ',
      od: { ...emptyForm().od, sph: '1,5' },
      pdKind: 'dual' as const,
      pdRight: '31',
      pdLeft: '',
    };
    expect(readForm(form, true)).toEqual({
      errors: {
        name: 'is required',
        'od.sph': 'must be a number',
        'od.add': 'is required for these lenses',
        'os.sph': 'is required',
        'os.add': 'is required for these lenses',
        'pd.left': 'is required',
      },
    });
  });

  it('splits a server message into its field and text', () => {
    expect(serverFieldError('od.axis: is required when CYL is set')).toEqual({
      field: 'od.axis',
      message: 'is required when CYL is set',
    });
    expect(serverFieldError('Invalid token')).toEqual({ field: '', message: 'Invalid token' });
  });
});

describe('lens price', () => {
  it('adds the frame and every choice to the cent', () => {
    const type = {
      lens_type_id: 1,
      name: 'Progressive',
      description: '',
      price: 99.1,
      needs_prescription: true,
      needs_add: true,
      lenses: [],
    };
    const lines = priceLines(makeGoods(1, { final_price: 80.1 }), {
      type,
      lens: { lens_id: 2, lens_type_id: 1, name: 'Wide View', description: '', price: 69.1 },
      thickness: undefined,
      coatings: [{ coating_id: 1, name: 'Hydrophobic', description: '', price: 15.2 }],
      color: undefined,
      prism: 15,
    });
    expect(lines.map((line) => line.label)).toEqual([
      'Frame: Frame 1',
      'Lens type: Progressive',
      'Lens: Wide View',
      'Coating: Hydrophobic',
      'Prism',
    ]);
    expect(totalOf(lines)).toBe(278.5);
  });
});

/** Lens choices of a cart or order line and their prices. */
import { z } from 'zod';

/** The lens options chosen for one cart or order line (as a client sends them). */
export const lensChoice = z.object({
  lens_type_id: z.number({ required_error: 'is required' }).int().positive(),
  lens_id: z.number().int().positive().nullable().optional(),
  thickness_id: z.number().int().positive().nullable().optional(),
  coating_ids: z.array(z.number().int().positive()).max(10).optional(),
  lens_color_id: z.number().int().positive().nullable().optional(),
});

export const pricedLens = z.object({
  lens_type: z.object({ lens_type_id: z.number(), name: z.string(), price: z.number() }),
  lens: z.object({ lens_id: z.number(), name: z.string(), price: z.number() }).nullable(),
  thickness: z.object({ thickness_id: z.number(), name: z.string(), index: z.number(), price: z.number() }).nullable(),
  coatings: z.array(z.object({ coating_id: z.number(), name: z.string(), price: z.number() })),
  lens_color: z.object({ lens_color_id: z.number(), name: z.string(), price: z.number() }).nullable(),
  prism_price: z.number(),
  total: z.number(),
});

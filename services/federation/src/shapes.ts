// Response shapes of the federation routes. ActivityStreams and JRD documents are JSON-LD whose members
// are written once in domain/ap-json.ts; the schemas name what every document of a kind has and keep
// the rest as written (loose objects).
import { z } from 'zod';

const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

export const apDocumentSchema = loose({ id: z.string(), type: z.string() });
export const jrdSchema = loose({ subject: z.string(), links: z.array(loose({ rel: z.string() })) });
export const nodeinfoLinksSchema = z.object({
  links: z.array(z.object({ rel: z.string(), href: z.string() })),
});
export const nodeinfoSchema = loose({ version: z.literal('2.1'), software: loose({ name: z.string() }) });

export type ApDocument = z.input<typeof apDocumentSchema>;
export type Jrd = z.input<typeof jrdSchema>;
export type NodeinfoLinks = z.input<typeof nodeinfoLinksSchema>;
export type Nodeinfo = z.input<typeof nodeinfoSchema>;

/**
 * The Swiss VAT return under /api/accounting/vat (issue 13 §3; docs/api.md "VAT return"): settings,
 * periods, the return computed from postings, drill-down, filing (owner and admin), and the
 * eCH-0217 XML and the PDF of the form. The taxable person's name comes through the
 * `vatOrganisation` port (the own company belongs to modules above accounting).
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { VatSubmissionType, type VatLanguage, type VatSubmissionTypeId } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { auth } from '../../http/access.js';
import { vatDeclarationXml } from '../../lib/ech0217.js';
import { auditClient } from '../audit/audit.service.js';
import { invalidField } from './accounting.errors.js';
import { errors, errorsWithConflict, errorsWithNotFound, id, strictObject } from './accounting.schemas.js';
import { fileVatReturn, getFiledVatReturn, getVatReturn, listVatPeriods, periodLabel, type VatReturnRequest } from './vat-filing.service.js';
import { renderVatReturnPdf, type VatReturnPdfInput } from './vat-return.pdf.js';
import { drillVatFigure } from './vat-return.service.js';
import { getVatSettings, requireVatSettings, updateVatSettings, type VatActor } from './vat-settings.service.js';
import {
  vatDrillAnswer,
  vatDrillRequest,
  vatFiguresSchema,
  vatLang,
  vatPeriodListAnswer,
  vatReturnAnswer,
  vatReturnRequest,
  vatReturnSummarySchema,
  vatSettingsAnswer,
  vatSettingsData,
} from './vat.schemas.js';
import { toSummary } from './vat-filing.service.js';

const tags = ['accounting', 'vat'];

/** The taxable person as the return names it: the workplace's own company. */
export interface VatOrganisation {
  name: string;
  address: string[];
}
/** Port (wiring): the own company's name and address lines. */
export type VatOrganisationPort = (tx: Tx, instanceId: string) => Promise<VatOrganisation>;

export interface VatRouteOptions {
  vatOrganisation: VatOrganisationPort;
}

const requestOf = (body: { dateFrom: string; dateTo: string; type?: VatSubmissionTypeId | undefined }): VatReturnRequest => ({
  dateFrom: body.dateFrom,
  dateTo: body.dateTo,
  typeOfSubmission: body.type ?? VatSubmissionType.original,
});

const fileName = (dateFrom: string, dateTo: string, type: number, extension: string) => `vat-return-${dateFrom}-${dateTo}-${type}.${extension}`;

export const vatRoutes: FastifyPluginAsyncZod<VatRouteOptions> = async (app, { vatOrganisation }) => {
  const actor = (request: Parameters<typeof auth>[0]): VatActor => ({ userId: auth(request).userId, ...auditClient(request) });

  app.get(
    '/vat/settings',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The VAT registration and how the instance reports (null before it is set up).',
        response: { 200: z.object({ settings: vatSettingsAnswer.nullable() }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return { settings: await app.db.withInstance(instanceId, (tx) => getVatSettings(tx, instanceId)) };
    },
  );

  app.post(
    '/vat/settings/update',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          'Sets the VAT registration: `vatNumber` (CHE-123.456.789 MWST, UID check digit), `registrationDate`, `method` (effective | net, ' +
          'with one or two approved `netTaxRates` for net), `period` (monthly | quarterly | half-yearly | yearly; default quarterly, ' +
          'half-yearly for net), `basis` (agreed | received), `settlementAccount` (a balance-sheet account; null: 2209 Abrechnungskonto MWST). ' +
          'Owner and admin; audited.',
        body: strictObject({ data: vatSettingsData }),
        response: { 200: vatSettingsAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => updateVatSettings(tx, instanceId, request.body.data, actor(request)));
    },
  );

  app.get(
    '/vat/period/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: "The reporting periods of `year` (default: this year) with their status (open / filed) and filed returns; 409 vat_settings_missing before the settings.",
        querystring: z.object({ year: z.coerce.number().int('must be an integer').min(1995).max(2300).optional() }),
        response: { 200: vatPeriodListAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => listVatPeriods(tx, instanceId, request.query.year));
    },
  );

  app.post(
    '/vat/return/compute',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'The return of dateFrom..dateTo from postings alone: every figure, the settlement it would book and the reconciliation with the VAT accounts. ' +
          '`type` 1 (default) the books; 2 the books minus the filed returns of the period (409 vat_return_not_filed without one); ' +
          '3 the calendar year minus every return filed in it.',
        body: vatReturnRequest,
        response: { 200: vatReturnAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => getVatReturn(tx, instanceId, requestOf(request.body)));
    },
  );

  app.post(
    '/vat/return/postings',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'The postings behind one figure of dateFrom..dateTo (`ziffer`, and `ratePercent` for a tax row shared by several rates), each with ' +
          'what it adds; the rows sum to `total`. 400 on `ziffer` for 299, 500 and 510 (derived: open their parts).',
        body: vatDrillRequest,
        response: { 200: vatDrillAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { dateFrom, dateTo, ziffer, ratePercent } = request.body;
      if (dateFrom > dateTo) throw invalidField('dateTo', 'must not be before dateFrom');
      return app.db.withInstance(instanceId, async (tx) => {
        const settings = await requireVatSettings(tx, instanceId);
        return drillVatFigure(tx, instanceId, settings, dateFrom, dateTo, { ziffer, ratePercent });
      });
    },
  );

  app.post(
    '/vat/return/file',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          'Marks the return as filed: stores its figures, books the settlement entry (the VAT accounts to the settlement account, source `vat`) ' +
          'and locks the books up to dateTo, in one transaction. Type 1 needs a period of the settings that has ended (400 on dateFrom / dateTo); ' +
          '409 already_done when filed already (also for parallel calls), or for a correction without a difference. Owner and admin; audited.',
        body: vatReturnRequest,
        response: { 200: vatReturnAnswer.extend({ filed: vatReturnSummarySchema }), ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { vatReturn, filed } = await app.db.withInstance(instanceId, (tx) => fileVatReturn(tx, instanceId, requestOf(request.body), actor(request)));
      return { ...vatReturn, filed };
    },
  );

  app.post(
    '/vat/return/detail',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'A filed return with its figures as filed; 404 vat_return_not_found.',
        body: strictObject({ id }),
        response: { 200: vatReturnSummarySchema.extend({ label: z.string(), vatNumber: z.string(), figures: vatFiguresSchema }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const settings = await requireVatSettings(tx, instanceId);
        const row = await getFiledVatReturn(tx, instanceId, request.body.id);
        return { ...toSummary(row), label: periodLabel(settings, row.dateFrom, row.dateTo), vatNumber: row.vatNumber, figures: row.figures };
      });
    },
  );

  type ExportData = Omit<VatReturnPdfInput, 'generatedAt'> & { reference: string };

  /** A filed return as filed (404 vat_return_not_found). */
  const filedData = async (tx: Tx, instanceId: string, returnId: number): Promise<ExportData> => {
    const settings = await requireVatSettings(tx, instanceId);
    const row = await getFiledVatReturn(tx, instanceId, returnId);
    return {
      organisation: await vatOrganisation(tx, instanceId),
      vatNumber: row.vatNumber,
      dateFrom: row.dateFrom,
      dateTo: row.dateTo,
      label: periodLabel(settings, row.dateFrom, row.dateTo),
      typeOfSubmission: row.typeOfSubmission,
      basis: row.basis,
      figures: row.figures,
      reference: `Bilan VAT return ${row.id}`,
      filed: { id: row.id, filedAt: row.filedAt },
    };
  };

  /** A period as the books stand. */
  const periodData = async (tx: Tx, instanceId: string, body: z.infer<typeof vatReturnRequest>): Promise<ExportData> => {
    const vatReturn = await getVatReturn(tx, instanceId, requestOf(body));
    return {
      organisation: await vatOrganisation(tx, instanceId),
      vatNumber: vatReturn.vatNumber,
      dateFrom: vatReturn.dateFrom,
      dateTo: vatReturn.dateTo,
      label: vatReturn.label,
      typeOfSubmission: vatReturn.typeOfSubmission,
      basis: vatReturn.basis,
      figures: vatReturn.figures,
      reference: `Bilan VAT ${vatReturn.dateFrom} ${vatReturn.dateTo} ${vatReturn.typeOfSubmission}`,
      filed: null,
    };
  };

  const sendXml = (reply: FastifyReply, data: ExportData) => {
    const xml = vatDeclarationXml({
      vatNumber: data.vatNumber,
      organisationName: data.organisation.name,
      generatedAt: new Date(),
      dateFrom: data.dateFrom,
      dateTo: data.dateTo,
      typeOfSubmission: data.typeOfSubmission,
      basis: data.basis,
      businessReferenceId: data.reference,
      figures: data.figures,
    });
    return reply
      .header('content-type', 'application/xml; charset=utf-8')
      .header('content-disposition', `attachment; filename="${fileName(data.dateFrom, data.dateTo, data.typeOfSubmission, 'xml')}"`)
      .send(xml);
  };

  const sendPdf = async (reply: FastifyReply, data: ExportData, lang: VatLanguage) => {
    const pdf = await renderVatReturnPdf({ ...data, generatedAt: new Date() }, lang);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${fileName(data.dateFrom, data.dateTo, data.typeOfSubmission, 'pdf')}"`)
      .send(pdf);
  };

  const XML_ABOUT = 'eCH-0217 XML (VATDeclaration, namespace http://www.ech.ch/xmlns/eCH-0217/1) for upload on the ESTV portal. Binary application/xml.';
  const PDF_ABOUT = 'a PDF mirroring the ESTV form in `lang` de | fr | it | en (default de). Binary application/pdf.';

  app.post(
    '/vat/return/xml',
    {
      config: { access: 'read' },
      schema: { tags, description: `The return of dateFrom..dateTo (and \`type\`) as the books stand, as ${XML_ABOUT}`, body: vatReturnRequest },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      return sendXml(reply, await app.db.withInstance(instanceId, (tx) => periodData(tx, instanceId, request.body)));
    },
  );

  app.post(
    '/vat/return/pdf',
    {
      config: { access: 'read' },
      schema: { tags, description: `The return of dateFrom..dateTo (and \`type\`) as the books stand, as ${PDF_ABOUT}`, body: vatReturnRequest.extend({ lang: vatLang.default('de') }) },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      const { lang, ...body } = request.body;
      return sendPdf(reply, await app.db.withInstance(instanceId, (tx) => periodData(tx, instanceId, body)), lang);
    },
  );

  app.post(
    '/vat/return/filed/xml',
    {
      config: { access: 'read' },
      schema: { tags, description: `A filed return (\`id\`) with its figures as filed, as ${XML_ABOUT} 404 vat_return_not_found.`, body: strictObject({ id }) },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      return sendXml(reply, await app.db.withInstance(instanceId, (tx) => filedData(tx, instanceId, request.body.id)));
    },
  );

  app.post(
    '/vat/return/filed/pdf',
    {
      config: { access: 'read' },
      schema: { tags, description: `A filed return (\`id\`) with its figures as filed, as ${PDF_ABOUT} 404 vat_return_not_found.`, body: strictObject({ id, lang: vatLang.default('de') }) },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      return sendPdf(reply, await app.db.withInstance(instanceId, (tx) => filedData(tx, instanceId, request.body.id)), request.body.lang);
    },
  );
};

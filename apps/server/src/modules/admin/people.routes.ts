import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminDonorSchema,
  AdminDonorUpdateSchema,
  AdminPatientSchema,
  AdminPatientUpdateSchema,
  pagedSchema,
  PeopleQuerySchema,
} from '@bloodbank/shared/admin';
import { ErrorResponseSchema } from '@bloodbank/shared/errors';
import type { AppContext } from '../../context';
import { principalOf } from '../../plugins/access';
import { ADMIN_ONLY, adminAccessErrors } from './route-options';
import { IdParamsSchema } from '@bloodbank/shared/fields';
import {
  deactivateDonor,
  deactivatePatient,
  getDonor,
  getPatient,
  listDonorsPage,
  listPatientsPage,
  updateDonor,
  updatePatient,
} from './people.service';

const errors = { ...adminAccessErrors, 404: ErrorResponseSchema, 422: ErrorResponseSchema };

/** Manage Donors and Manage Patients: search, sort, page, view, edit, deactivate. */
export const peopleRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  app.get('/admin/donors', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Donors: search (name, username, email, mobile), sort and page',
      querystring: PeopleQuerySchema,
      response: { 200: pagedSchema(AdminDonorSchema), ...errors },
    },
    handler: async (request) => listDonorsPage(ctx, request.query),
  });

  app.get('/admin/donors/:id', {
    config: ADMIN_ONLY,
    schema: { tags: ['admin'], summary: 'One donor', params: IdParamsSchema, response: { 200: AdminDonorSchema, ...errors } },
    handler: async (request) => getDonor(ctx, request.params.id),
  });

  app.patch('/admin/donors/:id', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: "Edit a donor's details (the registration rules apply to every field sent)",
      params: IdParamsSchema,
      body: AdminDonorUpdateSchema,
      response: { 200: AdminDonorSchema, ...errors },
    },
    handler: async (request) => updateDonor(ctx, principalOf(request), request.params.id, request.body),
  });

  app.delete('/admin/donors/:id', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Deactivate a donor: no sign-in, tokens stop working, history stays',
      params: IdParamsSchema,
      response: { 200: AdminDonorSchema, ...errors },
    },
    handler: async (request) => deactivateDonor(ctx, principalOf(request), request.params.id),
  });

  app.get('/admin/patients', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Patients: search (name, username, email, mobile), sort and page',
      querystring: PeopleQuerySchema,
      response: { 200: pagedSchema(AdminPatientSchema), ...errors },
    },
    handler: async (request) => listPatientsPage(ctx, request.query),
  });

  app.get('/admin/patients/:id', {
    config: ADMIN_ONLY,
    schema: { tags: ['admin'], summary: 'One patient', params: IdParamsSchema, response: { 200: AdminPatientSchema, ...errors } },
    handler: async (request) => getPatient(ctx, request.params.id),
  });

  app.patch('/admin/patients/:id', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: "Edit a patient's details (the registration rules apply to every field sent)",
      params: IdParamsSchema,
      body: AdminPatientUpdateSchema,
      response: { 200: AdminPatientSchema, ...errors },
    },
    handler: async (request) => updatePatient(ctx, principalOf(request), request.params.id, request.body),
  });

  app.delete('/admin/patients/:id', {
    config: ADMIN_ONLY,
    schema: {
      tags: ['admin'],
      summary: 'Deactivate a patient: no sign-in, tokens stop working, history stays',
      params: IdParamsSchema,
      response: { 200: AdminPatientSchema, ...errors },
    },
    handler: async (request) => deactivatePatient(ctx, principalOf(request), request.params.id),
  });
};

import supertest from 'supertest';
import { createApp } from '../../src/app';

/** One app for the whole suite (not listening; supertest drives it). */
export const app = createApp();
export const api = () => supertest(app);

export * from './app-error';

import { expect } from 'chai';
import { definePort } from '../../src/core/port';
import '../../src/modules';
import { inboundNfe } from '../../src/modules/entry-document/entry-document.ports';
import { entryDocumentAccess } from '../../src/modules/payables/payables.ports';

/* Ports (core/port.ts): the seams by which a module reaches a module that depends on it. */
describe('ports (core/port.ts)', () => {
  it('gives the provider plugged in, and refuses a second one or a missing one', () => {
    const port = definePort<() => number>('test port');
    expect(() => port.get()).to.throw(/test port: no provider/);
    const one = () => 1;
    port.provide(one);
    port.provide(one);
    expect(port.get()()).to.equal(1);
    expect(() => port.provide(() => 2)).to.throw(/already provided/);
  });

  it('src/modules/index.ts provides every module port', () => {
    expect(inboundNfe.get().inboundOf).to.be.a('function');
    expect(inboundNfe.get().releaseImported).to.be.a('function');
    expect(entryDocumentAccess.get()).to.be.a('function');
  });
});

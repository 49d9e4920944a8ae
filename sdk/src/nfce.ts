import { CallOptions, HttpClient, seg } from './http';
import type { BodyOf, ResponseOf } from './typed';

/** `/api/nfce`: the NFC-e (modelo 65) the quick sale issues — the filial's settings, the notes, their XML and DANFE NFC-e. */
export class Nfce {
  constructor(private readonly http: HttpClient) {}

  /** GET /nfce/configuration/:filialId — configured:false until saved. */
  configuration(filialId: string, options?: CallOptions): Promise<ResponseOf<'/api/nfce/configuration/{filialId}', 'get'>> {
    return this.http.request({ method: 'GET', path: `/nfce/configuration/${seg(filialId)}`, options });
  }

  /** PUT /nfce/configuration/:filialId (needs the version read after the first save). */
  saveConfiguration(filialId: string, body: BodyOf<'/api/nfce/configuration/{filialId}', 'put'>, options?: CallOptions): Promise<ResponseOf<'/api/nfce/configuration/{filialId}', 'put'>> {
    return this.http.request({ method: 'PUT', path: `/nfce/configuration/${seg(filialId)}`, body, options });
  }

  /** GET /nfce/detail/:id */
  get(id: string, options?: CallOptions): Promise<ResponseOf<'/api/nfce/detail/{id}', 'get'>> {
    return this.http.request({ method: 'GET', path: `/nfce/detail/${seg(id)}`, options });
  }

  /** GET /nfce/:id/xml — the nfeProc once authorized, else the signed NFe (text). */
  xml(id: string, options?: CallOptions): Promise<string> {
    return this.http.request({ method: 'GET', path: `/nfce/${seg(id)}/xml`, read: 'text', options });
  }

  /** GET /nfce/:id/cancellation/xml — the procEventoNFe of the cancellation (110111). */
  cancellationXml(id: string, options?: CallOptions): Promise<string> {
    return this.http.request({ method: 'GET', path: `/nfce/${seg(id)}/cancellation/xml`, read: 'text', options });
  }

  /** GET /nfce/:id/original/xml — what settled the online attempt: procEventoNFe of the 110112 or procInutNFe of its number. */
  originalXml(id: string, options?: CallOptions): Promise<string> {
    return this.http.request({ method: 'GET', path: `/nfce/${seg(id)}/original/xml`, read: 'text', options });
  }

  /** GET /nfce/:id/danfe.txt — the DANFE NFC-e for ESC/POS printers (text). */
  danfeText(id: string, options?: CallOptions): Promise<string> {
    return this.http.request({ method: 'GET', path: `/nfce/${seg(id)}/danfe.txt`, read: 'text', options });
  }

  /** GET /nfce/:id/danfe — the 80 mm DANFE NFC-e (PDF bytes). */
  danfe(id: string, options?: CallOptions): Promise<Uint8Array> {
    return this.http.request({ method: 'GET', path: `/nfce/${seg(id)}/danfe`, read: 'bytes', options });
  }
}

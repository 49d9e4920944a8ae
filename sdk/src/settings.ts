import { CallOptions, HttpClient, seg } from './http';
import type { CompanySettings, FilialSettings, UpdateCompanySettingsRequest, UpdateFilialSettingsRequest } from './types';

/** `/api/settings`: a filial's fiscal settings and the company's purchase tolerances. */
export class Settings {
  constructor(private readonly http: HttpClient) {}

  private filialOf(filialId: string | undefined): string {
    const id = filialId ?? this.http.filialId;
    if (!id) throw new TypeError('needs a filialId (as argument or in the client options)');
    return id;
  }

  /** GET /settings/filial/:filialId (default: the client's filial). */
  filial(filialId?: string, options?: CallOptions): Promise<FilialSettings> {
    return this.http.request({ method: 'GET', path: `/settings/filial/${seg(this.filialOf(filialId))}`, options });
  }

  /** PATCH /settings/filial/:filialId (needs the version read). */
  updateFilial(body: UpdateFilialSettingsRequest, filialId?: string, options?: CallOptions): Promise<FilialSettings> {
    return this.http.request({ method: 'PATCH', path: `/settings/filial/${seg(this.filialOf(filialId))}`, body, options });
  }

  /** GET /settings/company */
  company(options?: CallOptions): Promise<CompanySettings> {
    return this.http.request({ method: 'GET', path: '/settings/company', options });
  }

  /** PATCH /settings/company (needs the version read and a token granting every filial). */
  updateCompany(body: UpdateCompanySettingsRequest, options?: CallOptions): Promise<CompanySettings> {
    return this.http.request({ method: 'PATCH', path: '/settings/company', body, options });
  }
}

/*
 * The EFD ICMS/IPI layout: every register this service writes with its fields in order and their format,
 * as the Guia Prático da EFD ICMS/IPI (versão 3.1.x, leiaute 017-020) lists them. Formats:
 *   C  text (no "|", no line break)        N  digits only            D  date ddmmaaaa
 *   V2 / V3 / V4 / V6  decimal, comma, that many places at most, no thousands separator
 * A trailing "!" marks a field that may never be empty (conditional ones are checked by the validator).
 * docs/decisions/sped-efd-icms-ipi.md records the source and the choices.
 */

export type FieldFormat = 'C' | 'N' | 'D' | 'V2' | 'V3' | 'V4' | 'V6';
export interface FieldDef {
  name: string;
  format: FieldFormat;
  required: boolean;
}

const f = (spec: string): FieldDef[] =>
  spec
    .trim()
    .split(/\s+/)
    .map((token) => {
      const [name, fmt] = token.split(':');
      const required = fmt.endsWith('!');
      return { name, format: fmt.replace('!', '') as FieldFormat, required };
    });

export const LAYOUT: Record<string, FieldDef[]> = {
  '0000': f(
    'REG:C! COD_VER:N! COD_FIN:N! DT_INI:D! DT_FIN:D! NOME:C! CNPJ:N CPF:N UF:C! IE:C! COD_MUN:N! IM:C SUFRAMA:C IND_PERFIL:C! IND_ATIV:N!',
  ),
  '0001': f('REG:C! IND_MOV:N!'),
  '0005': f('REG:C! FANTASIA:C! CEP:N! END:C! NUM:C COMPL:C BAIRRO:C FONE:C FAX:C EMAIL:C'),
  '0100': f('REG:C! NOME:C! CPF:N! CRC:C! CNPJ:N CEP:N END:C NUM:C COMPL:C BAIRRO:C FONE:C FAX:C EMAIL:C COD_MUN:N'),
  '0150': f('REG:C! COD_PART:C! NOME:C! COD_PAIS:N! CNPJ:N CPF:N IE:C COD_MUN:N SUFRAMA:C END:C NUM:C COMPL:C BAIRRO:C'),
  '0190': f('REG:C! UNID:C! DESCR:C!'),
  '0200': f(
    'REG:C! COD_ITEM:C! DESCR_ITEM:C! COD_BARRA:C COD_ANT_ITEM:C UNID_INV:C! TIPO_ITEM:N! COD_NCM:C EX_IPI:C COD_GEN:N COD_LST:C ALIQ_ICMS:V2 CEST:N',
  ),
  '0220': f('REG:C! UNID_CONV:C! FAT_CONV:V6! COD_BARRA:C'),
  '0400': f('REG:C! COD_NAT:C! DESCR_NAT:C!'),
  '0450': f('REG:C! COD_INF:C! TXT:C!'),
  '0460': f('REG:C! COD_OBS:C! TXT:C!'),
  '0990': f('REG:C! QTD_LIN_0:N!'),
  B001: f('REG:C! IND_MOV:N!'),
  B990: f('REG:C! QTD_LIN_B:N!'),
  C001: f('REG:C! IND_MOV:N!'),
  C100: f(
    'REG:C! IND_OPER:N! IND_EMIT:N! COD_PART:C COD_MOD:C! COD_SIT:N! SER:C NUM_DOC:N! CHV_NFE:N DT_DOC:D DT_E_S:D VL_DOC:V2 IND_PGTO:N VL_DESC:V2 VL_ABAT_NT:V2 VL_MERC:V2 IND_FRT:N VL_FRT:V2 VL_SEG:V2 VL_OUT_DA:V2 VL_BC_ICMS:V2 VL_ICMS:V2 VL_BC_ICMS_ST:V2 VL_ICMS_ST:V2 VL_IPI:V2 VL_PIS:V2 VL_COFINS:V2 VL_PIS_ST:V2 VL_COFINS_ST:V2',
  ),
  C101: f('REG:C! VL_FCP_UF_DEST:V2! VL_ICMS_UF_DEST:V2! VL_ICMS_UF_REM:V2!'),
  C170: f(
    'REG:C! NUM_ITEM:N! COD_ITEM:C! DESCR_COMPL:C QTD:V4 UNID:C VL_ITEM:V2! VL_DESC:V2 IND_MOV:N CST_ICMS:N! CFOP:N! COD_NAT:C VL_BC_ICMS:V2 ALIQ_ICMS:V2 VL_ICMS:V2 VL_BC_ICMS_ST:V2 ALIQ_ST:V2 VL_ICMS_ST:V2 IND_APUR:N CST_IPI:C COD_ENQ:C VL_BC_IPI:V2 ALIQ_IPI:V2 VL_IPI:V2 CST_PIS:N VL_BC_PIS:V2 ALIQ_PIS:V4 QUANT_BC_PIS:V3 ALIQ_PIS_QUANT:V4 VL_PIS:V2 CST_COFINS:N VL_BC_COFINS:V2 ALIQ_COFINS:V4 QUANT_BC_COFINS:V3 ALIQ_COFINS_QUANT:V4 VL_COFINS:V2 COD_CTA:C VL_ABAT_NT:V2',
  ),
  C190: f(
    'REG:C! CST_ICMS:N! CFOP:N! ALIQ_ICMS:V2 VL_OPR:V2! VL_BC_ICMS:V2! VL_ICMS:V2! VL_BC_ICMS_ST:V2! VL_ICMS_ST:V2! VL_RED_BC:V2! VL_IPI:V2! COD_OBS:C',
  ),
  C195: f('REG:C! COD_OBS:C! TXT_COMPL:C'),
  C197: f('REG:C! COD_AJ:C! DESCR_COMPL_AJ:C COD_ITEM:C VL_BC_ICMS:V2 ALIQ_ICMS:V2 VL_ICMS:V2 VL_OUTROS:V2'),
  C990: f('REG:C! QTD_LIN_C:N!'),
  D001: f('REG:C! IND_MOV:N!'),
  D100: f(
    'REG:C! IND_OPER:N! IND_EMIT:N! COD_PART:C COD_MOD:C! COD_SIT:N! SER:C SUB:C NUM_DOC:N! CHV_CTE:N DT_DOC:D DT_A_P:D TP_CTE:N CHV_CTE_REF:N VL_DOC:V2 VL_DESC:V2 IND_FRT:N VL_SERV:V2 VL_BC_ICMS:V2 VL_ICMS:V2 VL_NT:V2 COD_INF:C COD_CTA:C COD_MUN_ORIG:N COD_MUN_DEST:N',
  ),
  D190: f('REG:C! CST_ICMS:N! CFOP:N! ALIQ_ICMS:V2 VL_OPR:V2! VL_BC_ICMS:V2! VL_ICMS:V2! VL_RED_BC:V2! COD_OBS:C'),
  D990: f('REG:C! QTD_LIN_D:N!'),
  E001: f('REG:C! IND_MOV:N!'),
  E100: f('REG:C! DT_INI:D! DT_FIN:D!'),
  E110: f(
    'REG:C! VL_TOT_DEBITOS:V2! VL_AJ_DEBITOS:V2! VL_TOT_AJ_DEBITOS:V2! VL_ESTORNOS_CRED:V2! VL_TOT_CREDITOS:V2! VL_AJ_CREDITOS:V2! VL_TOT_AJ_CREDITOS:V2! VL_ESTORNOS_DEB:V2! VL_SLD_CREDOR_ANT:V2! VL_SLD_APURADO:V2! VL_TOT_DED:V2! VL_ICMS_RECOLHER:V2! VL_SLD_CREDOR_TRANSPORTAR:V2! DEB_ESP:V2!',
  ),
  E111: f('REG:C! COD_AJ_APUR:C! DESCR_COMPL_AJ:C VL_AJ_APUR:V2!'),
  E116: f('REG:C! COD_OR:C! VL_OR:V2! DT_VCTO:D! COD_REC:C! NUM_PROC:C IND_PROC:N PROC:C TXT_COMPL:C MES_REF:N!'),
  E200: f('REG:C! UF:C! DT_INI:D! DT_FIN:D!'),
  E210: f(
    'REG:C! IND_MOV_ST:N! VL_SLD_CRED_ANT_ST:V2! VL_DEVOL_ST:V2! VL_RESSARC_ST:V2! VL_OUT_CRED_ST:V2! VL_AJ_CREDITOS_ST:V2! VL_RETENCAO_ST:V2! VL_OUT_DEB_ST:V2! VL_AJ_DEBITOS_ST:V2! VL_SLD_DEV_ANT_ST:V2! VL_DEDUCOES_ST:V2! VL_ICMS_RECOL_ST:V2! VL_SLD_CRED_ST_TRANSPORTAR:V2! DEB_ESP_ST:V2!',
  ),
  E250: f('REG:C! COD_OR:C! VL_OR:V2! DT_VCTO:D! COD_REC:C! NUM_PROC:C IND_PROC:N PROC:C TXT_COMPL:C MES_REF:N!'),
  E300: f('REG:C! UF:C! DT_INI:D! DT_FIN:D!'),
  E310: f(
    'REG:C! IND_MOV_FCP_DIFAL:N! VL_SLD_CRED_ANT_DIFAL:V2! VL_TOT_DEBITOS_DIFAL:V2! VL_OUT_DEB_DIFAL:V2! VL_TOT_CREDITOS_DIFAL:V2! VL_OUT_CRED_DIFAL:V2! VL_SLD_DEV_ANT_DIFAL:V2! VL_DEDUCOES_DIFAL:V2! VL_RECOL_DIFAL:V2! VL_SLD_CRED_TRANSPORTAR_DIFAL:V2! DEB_ESP_DIFAL:V2! VL_SLD_CRED_ANT_FCP:V2! VL_TOT_DEB_FCP:V2! VL_OUT_DEB_FCP:V2! VL_TOT_CRED_FCP:V2! VL_OUT_CRED_FCP:V2! VL_SLD_DEV_ANT_FCP:V2! VL_DEDUCOES_FCP:V2! VL_RECOL_FCP:V2! VL_SLD_CRED_TRANSPORTAR_FCP:V2! DEB_ESP_FCP:V2!',
  ),
  E316: f('REG:C! COD_OR:C! VL_OR:V2! DT_VCTO:D! COD_REC:C! NUM_PROC:C IND_PROC:N PROC:C TXT_COMPL:C MES_REF:N!'),
  E990: f('REG:C! QTD_LIN_E:N!'),
  G001: f('REG:C! IND_MOV:N!'),
  G990: f('REG:C! QTD_LIN_G:N!'),
  H001: f('REG:C! IND_MOV:N!'),
  H005: f('REG:C! DT_INV:D! VL_INV:V2! MOT_INV:N!'),
  H010: f('REG:C! COD_ITEM:C! UNID:C! QTD:V3! VL_UNIT:V6! VL_ITEM:V2! IND_PROP:N! COD_PART:C TXT_COMPL:C COD_CTA:C VL_ITEM_IR:V2'),
  H990: f('REG:C! QTD_LIN_H:N!'),
  K001: f('REG:C! IND_MOV:N!'),
  K990: f('REG:C! QTD_LIN_K:N!'),
  '1001': f('REG:C! IND_MOV:N!'),
  '1010': f(
    'REG:C! IND_EXP:C! IND_CCRF:C! IND_COMB:C! IND_USINA:C! IND_VA:C! IND_EE:C! IND_CART:C! IND_FORM:C! IND_AER:C! IND_GIAF1:C! IND_GIAF3:C! IND_GIAF4:C! IND_REST_RESSARC_COMPL_ICMS:C!',
  ),
  '1990': f('REG:C! QTD_LIN_1:N!'),
  '9001': f('REG:C! IND_MOV:N!'),
  '9900': f('REG:C! REG_BLC:C! QTD_REG_BLC:N!'),
  '9990': f('REG:C! QTD_LIN_9:N!'),
  '9999': f('REG:C! QTD_LIN:N!'),
};

/** Block order of the file (Guia Prático, "Organização do arquivo"). */
export const BLOCK_ORDER = ['0', 'B', 'C', 'D', 'E', 'G', 'H', 'K', '1', '9'];

/**
 * COD_VER by period (Tabela de versões do leiaute, Ato COTEPE/ICMS 44/2018 and its updates): one code per
 * calendar year since 2009 (002 = 2009 … 017 = 2023, 018 = 2024, 019 = 2025, 020 = 2026). A period after
 * the last known year is refused rather than filed under a stale layout.
 */
export function layoutVersionOf(period: string): string | null {
  const year = Number(period.slice(0, 4));
  if (year < 2020) return null;
  const code = year - 2006;
  if (code > 20) return null;
  return String(code).padStart(3, '0');
}

/*
 * Prints where a saved CPU profile's time goes by stage of a request (bench/support.ts
 * stagesOfCpuProfile): npx ts-node bench/stages.ts bench/out/quick-sale.cpuprofile
 */
import { stagesOfCpuProfile } from './support';

for (const file of process.argv.slice(2)) {
  console.log(`\n${file}\n| stage | ms | share |\n|---|---|---|`);
  for (const s of stagesOfCpuProfile(file)) console.log(`| ${s.stage} | ${s.ms} | ${s.share}% |`);
  process.exit(0);
}

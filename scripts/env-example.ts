// Writes .env.example from the config schema: `npm run env:example`.
import { writeFileSync } from 'node:fs';
import { AllEnv, renderEnvExample } from '@touchbase/config';

writeFileSync(new URL('../.env.example', import.meta.url), renderEnvExample(AllEnv));

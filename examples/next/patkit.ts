// The authority of the Next.js example, made once per server process and shared by its routes. In
// your own app: `createAuthority({ store: sqlStore(db), pepper })` from 'patkit' and 'patkit/sql'.
import { demoAuthority } from '../demo-authority.js'

export const authority = await demoAuthority()

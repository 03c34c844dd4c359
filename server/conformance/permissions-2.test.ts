// The permission and leak matrix, part 2 of 3 (server/conformance/permissions-matrix.ts says why in parts).
import { conformanceServer } from './harness.ts'
import { permissionMatrix } from './permissions-matrix.ts'

permissionMatrix(await conformanceServer(), 1, 3)

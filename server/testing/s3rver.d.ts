/** @20minutes/s3rver ships no types: what server/testing/s3.ts uses of it. */
declare module '@20minutes/s3rver' {
  interface S3rverOptions {
    port?: number
    address?: string
    silent?: boolean
    directory: string
    configureBuckets?: Array<{ name: string }>
    resetOnClose?: boolean
  }
  export default class S3rver {
    constructor(options: S3rverOptions)
    run(): Promise<{ port: number; address: string }>
    close(): Promise<void>
  }
}

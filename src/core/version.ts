import pkg from '../../package.json' with { type: 'json' };

export const version: string = pkg.version;
export const userAgent = `cpk/${version} node/${process.versions.node}`;

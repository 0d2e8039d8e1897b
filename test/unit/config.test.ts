import { expect } from 'chai';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config.ts';

const CWD = path.resolve('/srv/cms');

function load(env: Record<string, string>, flags: Record<string, string> = {}) {
  return loadConfig({ env, flags, cwd: CWD });
}

describe('loadConfig', () => {
  it('takes flags before env and trims the base URL', () => {
    const config = load({ PORT: '4000', CMS_BASE_URL: 'https://env.example' }, { port: '5000', 'base-url': 'https://cms.example/base//' });
    expect(config.port).to.equal(5000);
    expect(config.baseUrl).to.equal('https://cms.example/base');
    expect(config.dataDir).to.equal(CWD);
    expect(Object.isFrozen(config.limits)).to.equal(true);
  });

  it('reads an empty or missing CMS_UPDATE_FEED as "no updates"', () => {
    expect(load({}).updateFeed).to.equal(undefined);
    expect(load({ CMS_UPDATE_FEED: '' }).updateFeed).to.equal(undefined);
    expect(load({ CMS_UPDATE_FEED: 'https://feed.example/latest.json' }).updateFeed).to.equal('https://feed.example/latest.json');
  });

  for (const [env, setting] of [
    [{ CMS_BASE_URL: 'ftp://cms.example' }, 'CMS_BASE_URL'],
    [{ CMS_UPDATE_FEED: 'feed.example' }, 'CMS_UPDATE_FEED'],
    [{ CMS_LOG_LEVEL: 'debug' }, 'CMS_LOG_LEVEL'],
    [{ CMS_DEFAULT_WORKSPACE: 'Main' }, 'CMS_DEFAULT_WORKSPACE'],
    [{ PORT: '70000' }, 'PORT'],
    [{ CMS_PRIMARY_TIMEOUT_MS: '5' }, 'CMS_PRIMARY_TIMEOUT_MS'],
  ] as const) {
    it(`refuses a malformed ${setting} with a ConfigError naming it`, () => {
      expect(() => load(env)).to.throw(ConfigError, setting);
    });
  }
});

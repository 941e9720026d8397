import { describe, expect, it, vi } from 'vitest';
import { lazyModule, preloadOnIntent } from './lazy-module';

describe('preloadOnIntent', () => {
  it('starts loading the module when its trigger is pointed at or focused, once', async () => {
    const load = vi.fn(async () => ({ Dialog: 'the dialog' }));
    const module = lazyModule(load);
    const props = preloadOnIntent(module);
    expect(load).not.toHaveBeenCalled();
    props.onPointerEnter();
    props.onFocus();
    props.onPointerEnter();
    expect(load).toHaveBeenCalledTimes(1);
    await expect(module.preload()).resolves.toEqual({ Dialog: 'the dialog' });
  });
});

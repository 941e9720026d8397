/** The chat inside the widget's iframe: boot data from the embed page, then the Preact app. */
import type { TWidgetBoot } from '@cairn/contracts/widget';
import { render } from 'preact';
import { Chat } from './chat';
import './embed.css';

const boot = JSON.parse(document.getElementById('cairn-boot')?.textContent ?? 'null') as TWidgetBoot | null;
const root = document.getElementById('app');
if (boot && root) render(<Chat boot={boot} initialConfig={boot.config} />, root);

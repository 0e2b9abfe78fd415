import type { AppOfflineBanner as Banner } from './AppOfflineBanner';
import { OfflineBanner } from './OfflineBanner';

export const AppOfflineBanner: typeof Banner = () => <OfflineBanner />;

import type { ReactNode } from 'react';

export interface CarouselSlide {
  key: string;
  content: ReactNode;
  onClick?: () => void;
}

export interface CarouselProps {
  /** Sizes the carousel (height, margins, rounding); each slide fills it. */
  className: string;
  slides: CarouselSlide[];
  /** Dots under the slides (shown only with more than one slide). */
  dots?: boolean;
  /** Moves to the next slide every few seconds, back to the first after the last. */
  autoplay?: boolean;
}

/**
 * Slides side by side, one file per platform: on weapp (Carousel.weapp.tsx) WeChat's native swiper; on H5
 * (Carousel.h5.tsx) a scroll-snapping strip of a few lines, because Taro's H5 Swiper brings the `swiper` library
 * (43 KB gzip) into the page that shows it, the home page's first load included (README "Performance").
 */
export type CarouselComponent = (props: CarouselProps) => JSX.Element | null;

export declare const Carousel: CarouselComponent;

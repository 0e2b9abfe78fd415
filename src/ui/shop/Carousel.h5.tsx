import { useEffect, useRef, useState } from 'react';
import type { CarouselComponent } from './Carousel';
import './carousel.css';

export const CAROUSEL_INTERVAL_MS = 5000;

/**
 * A horizontal strip that snaps to one slide at a time: swiping is the browser's own scrolling, so no library and
 * no script runs until a slide changes. Autoplay scrolls to the next slide, pauses while a finger is down and stays
 * off for users who ask for reduced motion.
 */
export const Carousel: CarouselComponent = ({ className, slides, dots = false, autoplay = false }) => {
  const track = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  const touching = useRef(false);
  const count = slides.length;

  useEffect(() => {
    if (!autoplay || count < 2) return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const timer = setInterval(() => {
      const strip = track.current;
      if (!strip || touching.current || strip.clientWidth === 0) return;
      const next = (Math.round(strip.scrollLeft / strip.clientWidth) + 1) % count;
      strip.scrollTo({ left: next * strip.clientWidth, behavior: 'smooth' });
    }, CAROUSEL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [autoplay, count]);

  const onScroll = () => {
    const strip = track.current;
    if (strip && strip.clientWidth > 0) setCurrent(Math.round(strip.scrollLeft / strip.clientWidth));
  };

  return (
    <div className={`lm-carousel ${className}`}>
      <div
        className="lm-carousel__track"
        ref={track}
        onScroll={onScroll}
        onTouchStart={() => {
          touching.current = true;
        }}
        onTouchEnd={() => {
          touching.current = false;
        }}
      >
        {slides.map((slide) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: a slide is tapped as Taro's SwiperItem is; the link it opens is reachable from the page too
          <div className="lm-carousel__slide" key={slide.key} onClick={slide.onClick}>
            {slide.content}
          </div>
        ))}
      </div>
      {dots && count > 1 && (
        <div className="lm-carousel__dots">
          {slides.map((slide, index) => (
            <span className={`lm-carousel__dot${index === current ? ' lm-carousel__dot--on' : ''}`} key={slide.key} />
          ))}
        </div>
      )}
    </div>
  );
};

import { Swiper, SwiperItem } from '@tarojs/components';
import type { CarouselComponent } from './Carousel';

/** WeChat's native swiper. */
export const Carousel: CarouselComponent = ({ className, slides, dots = false, autoplay = false }) => (
  <Swiper className={className} indicatorDots={dots && slides.length > 1} autoplay={autoplay} circular={autoplay}>
    {slides.map((slide) => (
      <SwiperItem key={slide.key} onClick={slide.onClick}>
        {slide.content}
      </SwiperItem>
    ))}
  </Swiper>
);

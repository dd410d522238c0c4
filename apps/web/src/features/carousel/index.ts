/** The public face of the carousel feature: the app shell imports only from here. */
export { CarouselPage } from './components/CarouselPage.tsx';

// Entry point: draws the app into #app.
import { render } from 'preact';
import { App } from './app.tsx';
import { preloadScreen } from './router/router-view.tsx';
import './styles.css';

preloadScreen(window.location.pathname);
render(<App />, document.getElementById('app') as HTMLElement);

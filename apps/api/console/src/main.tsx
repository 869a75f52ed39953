import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { AlertsPage } from './pages/alerts.js';
import { CampaignPage, CampaignsPage } from './pages/campaigns.js';
import { DomainPage, DomainsPage } from './pages/domains.js';
import { EnrollmentPage } from './pages/enrollment.js';
import { PeoplePage, PersonPage, WaitingListPage } from './pages/people.js';
import { SimulatePage } from './pages/simulate.js';
import './console.css';

const NAV = [
  ['/console/campaigns', 'Campaigns'],
  ['/console/people', 'People'],
  ['/console/domains', 'Domains and mailboxes'],
  ['/console/alerts', 'Alerts and triage'],
] as const;

function Header() {
  const { path } = useLocation();
  return (
    <header>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <span class="brand">touchbase</span>
      <nav aria-label="Console">
        <ul>
          {NAV.map(([href, label]) => (
            <li key={href}>
              <a href={href} aria-current={path === href || path.startsWith(`${href}/`) ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <form method="post" action="/logout">
        <button type="submit">Sign out</button>
      </form>
    </header>
  );
}

/** After a client-side navigation, focus moves to the page's heading and the title follows it. */
function FocusOnNavigate() {
  const { url } = useLocation();
  useEffect(() => {
    const t = setTimeout(() => {
      const h1 = document.querySelector<HTMLElement>('main h1');
      document.title = `${h1?.textContent ?? 'Console'}: touchbase`;
    }, 0);
    document.querySelector<HTMLElement>('main')?.focus({ preventScroll: true });
    return () => clearTimeout(t);
  }, [url]);
  return null;
}

function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>
        No page here. <a href="/console/campaigns">Campaigns</a>
      </p>
    </>
  );
}

function App() {
  return (
    <LocationProvider>
      <Header />
      <FocusOnNavigate />
      <main id="main" tabIndex={-1}>
        <ErrorBoundary>
          <Router>
            <Route path="/console" component={CampaignsPage} />
            <Route path="/console/campaigns" component={CampaignsPage} />
            <Route path="/console/campaigns/:id" component={CampaignPage} />
            <Route path="/console/campaigns/:id/simulate" component={SimulatePage} />
            <Route path="/console/people" component={PeoplePage} />
            <Route path="/console/people/:id" component={PersonPage} />
            <Route path="/console/waiting/:reason" component={WaitingListPage} />
            <Route path="/console/enrollments/:id" component={EnrollmentPage} />
            <Route path="/console/domains" component={DomainsPage} />
            <Route path="/console/domains/:id" component={DomainPage} />
            <Route path="/console/alerts" component={AlertsPage} />
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </main>
    </LocationProvider>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);

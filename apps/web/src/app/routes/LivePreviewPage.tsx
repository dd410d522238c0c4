import { SourceTree } from '../../shared/source-tree/index.ts';
import { useLivePreviewActions } from '../../features/live/index.ts';
import { PlayGrid } from '../../features/live/index.ts';
import { SidebarPage } from '../../shared/layout/SidebarPage.tsx';

/** /live/index (spec §2): source tree on the left, statistics (when open) over the play grid. */
export function LivePreviewPage() {
  const actions = useLivePreviewActions();
  return (
    <SidebarPage sidebar={<SourceTree actions={actions} />}>
      <PlayGrid />
    </SidebarPage>
  );
}

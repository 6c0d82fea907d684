import { stopEverything, stopEverythingOnSignals, workDir } from './daemons';
import { printReport, type DrillReport } from './report';

/**
 * A drill's frame: its own folder, every server stopped at the end whatever happened, the report printed, and
 * the exit code (1 when a check failed or the drill could not run) that fails `.ci/run`.
 */
export function runDrill(name: string, drill: (dir: string, startedAt: number) => Promise<DrillReport>): void {
  const run = async (): Promise<number> => {
    stopEverythingOnSignals();
    const dir = workDir(name);
    try {
      const report = await drill(dir, Date.now());
      printReport(report);
      return report.ok ? 0 : 1;
    } catch (error) {
      printReport({ drill: name, ok: false, problems: [`the drill could not run: ${(error as Error).stack ?? error}`], work_dir: dir });
      return 1;
    } finally {
      await stopEverything();
    }
  };
  void run().then((code) => process.exit(code));
}

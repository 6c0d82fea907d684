const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
it('loads', async () => {
  let a = cpu(); const { startTestService } = require('../support/test-service'); console.log('LOAD service', (cpu() - a).toFixed(0));
  a = cpu(); const s = await startTestService(); console.log('LOAD boot', (cpu() - a).toFixed(0));
  a = cpu(); await s.stop(); console.log('LOAD stop', (cpu() - a).toFixed(0));
});

import ExcelJS from 'exceljs'
import { once } from 'node:events'
import { PassThrough, Writable } from 'node:stream'
const out = new PassThrough({ highWaterMark: 256 * 1024 })
const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false, zip: process.env.LEVEL ? { zlib: { level: Number(process.env.LEVEL) } } : undefined })
const sheet = wb.addWorksheet('s')
sheet.columns = Array.from({ length: 11 }, (_, i) => ({ header: 'h' + i, key: 'c' + i, width: 12 }))
sheet.getRow(1).commit()
out.pipe(new Writable({ write(c, e, cb) { setImmediate(cb) } }))
const m = () => { const u = process.memoryUsage(); return `rss ${Math.round(u.rss/1048576)} heapTot ${Math.round(u.heapTotal/1048576)} heap ${Math.round(u.heapUsed/1048576)} ab ${Math.round(u.arrayBuffers/1048576)}` }
console.log('start', m())
let peak = 0; const t = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 20)
const t0 = Date.now()
const CH = Number(process.env.CH ?? 2000)
for (let i = 0; i < 100000; i++) {
  const r = sheet.addRow(['First' + i, 'Last' + i, `l.${i}@x.example.com`, 'COMPLETED', 'PASSED', 0.5, i, '1h 2m', new Date(), new Date(), null])
  r.getCell(9).numFmt = 'yyyy-mm-dd hh:mm:ss'; r.getCell(10).numFmt = 'yyyy-mm-dd hh:mm:ss'; r.getCell(11).numFmt = 'yyyy-mm-dd hh:mm:ss'
  r.commit()
  if (i % CH === CH - 1) {
    const p = sheet.stream.pipes[0]
    while (p._writableState.needDrain) await once(p, 'drain')
    if (i % 20000 === 19999) console.log(i, m())
    await new Promise((r) => setTimeout(r, 2))
  }
}
sheet.commit(); await wb.commit(); clearInterval(t); console.log('end', m(), 'peak', Math.round(peak/1048576), 'ms', Date.now() - t0)

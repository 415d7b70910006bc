/**
 * The forecast's Web Worker (bundled as `dist/forecast-worker.mjs`, started as a module worker
 * by the combat tracker's forecast dialog): each message is a {@link ForecastRequest}, each
 * reply a {@link ForecastReply} (see worker.ts).
 */
import { forecastWorker, type ForecastReply, type ForecastRequest } from "./worker.js";

/** The parts of a worker's global scope used here. */
interface WorkerScope {
  postMessage(message: ForecastReply): void;
  onmessage: ((event: { data: ForecastRequest }) => void) | null;
}

const scope = globalThis as unknown as WorkerScope;
const handle = forecastWorker((reply) => scope.postMessage(reply));
scope.onmessage = (event) => void handle(event.data);

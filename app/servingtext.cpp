#include "app/servingtext.h"

#include "core/run/kvcache.h"

#include <algorithm>

namespace napkin {

namespace {

QString pad(const QString &s, int width)
{
    return s.leftJustified(width);
}

} // namespace

void writeServing(QTextStream &t, const Report &r, ByteUnit unit)
{
    const InferenceReport &in = *r.inference;
    const Scenario &s = r.scenario;
    const ServingMemory &m = in.memory;
    const auto gb = [unit](double b) { return fmt::bytesIn(b, unit); };
    t << "\nServing " << s.promptTokens << " prompt + " << s.outputTokens << " output tokens per request; weights "
      << numberFormatName(s.weightDtype) << (s.weightDtype == NumberFormat::Int8 || s.weightDtype == NumberFormat::Int4
                                                 ? QStringLiteral(" (group %1)").arg(s.quantGroup) : QString())
      << ", KV cache " << numberFormatName(s.kvDtype) << "; " << QString::number(in.replicas) << " replica"
      << (in.replicas == 1 ? "" : "s") << " of " << QString::number(in.replicaGpus) << " GPU" << (in.replicaGpus == 1 ? "" : "s")
      << " (tp " << s.tp << " x pp " << s.pp << (s.ep > 1 ? QStringLiteral(", ep %1").arg(s.ep) : QString()) << ")\n";
    t << "\nMemory per GPU (" << r.gpu.name << ", " << gb(m.capacity) << "; vLLM's split at gpu_memory_utilization "
      << fmt::number(s.gpuMemoryUtilization) << " = " << gb(m.usable) << ")\n";
    t << "  weights          " << gb(m.weights) << "   blocks' linear layers " << numberFormatName(s.weightDtype)
      << " (" << fmt::number(weightBytesPerParam(s.weightDtype, static_cast<double>(s.quantGroup)), 4)
      << " bytes/param with scales); embeddings, head, norms, router bf16\n";
    t << "  activations      " << gb(m.activations) << "   peak of a " << s.prefillChunk
      << "-token prefill chunk and the sampler's logits\n";
    t << "  reserved         " << gb(m.reserved) << "   CUDA context" << (m.commBuffers > 0 ? QStringLiteral(" + %1 of communication buffers").arg(gb(m.commBuffers)) : QString()) << '\n';
    t << "  KV pool          " << gb(m.kvPool) << "   = usable - weights - activations - reserved; "
      << gb(m.kvInUse) << " in use at " << in.concurrency << " sequences, " << gb(m.kvFree()) << " free\n";
    t << "\nKV cache\n";
    t << "  per token        " << fmt::bytes(in.kvBytesPerToken, unit) << "   the whole model, every block, no window\n";
    t << "  per sequence     " << fmt::bytes(in.kvBytesPerSequence, unit) << "   at " << s.promptTokens + s.outputTokens
      << " tokens" << (s.model.slidingWindow > 0 ? ", windowed blocks capped at their window" : "") << '\n';
    t << "  capacity         " << fmt::count(static_cast<std::int64_t>(in.kvCapacityTokens)) << " tokens per replica = "
      << fmt::count(static_cast<std::int64_t>(in.kvBlocks)) << " blocks of " << s.kvBlockTokens << " tokens ("
      << fmt::bytes(in.kvBlockBytes, unit) << " per GPU each)\n";
    t << "  concurrency      " << fmt::count(in.concurrency) << (s.concurrency ? "" : " (max)") << " of at most "
      << fmt::count(in.maxConcurrency)
      << " sequences of " << s.promptTokens + s.outputTokens << " tokens per replica ("
      << (in.kvMaxConcurrency > s.maxNumSeqs
              ? QStringLiteral("the scheduler's max_num_seqs; the KV pool holds %1)").arg(fmt::count(in.kvMaxConcurrency))
              : QStringLiteral("what the KV pool holds)"))
      << '\n';
    t << "\nTime (steady state of continuous batching, " << in.gemmDtype << " GEMMs)\n";
    t << "  time to first    " << fmt::duration(in.ttftSeconds) << "   its prefill (" << fmt::duration(in.prefillSeconds)
      << ") and the others a step admits (concurrency / output tokens), beside the batch's decode\n";
    t << "  per output token " << fmt::duration(in.tpotSeconds) << "   a decode step " << fmt::duration(in.decodeStepSeconds)
      << " (" << fmt::duration(in.decodeCommSeconds) << " communication) + the batch's prefills per token ("
      << fmt::duration(std::max(0.0, in.tpotSeconds - in.decodeStepSeconds)) << ")\n";
    t << "  end to end       " << fmt::duration(in.e2eSeconds) << "   = TTFT + (output - 1) x TPOT\n";
    t << "  throughput       " << fmt::number(in.outputTokensPerS) << " output tokens/s (" << fmt::number(in.outputTokensPerSPerGpu)
      << " per GPU), " << fmt::number(in.inputTokensPerS) << " input tokens/s\n";
    if (in.costPerMillionOutputTokensUsd)
        t << "  cost             " << fmt::usd(*in.costPerMillionOutputTokensUsd) << " per million output tokens, "
          << fmt::usd(*in.costPerMillionInputTokensUsd) << " per million input tokens (each phase pays its share, "
          << fmt::percent(in.prefillShare) << " prefill)\n";
    else
        t << "  cost             no price   (the catalog has none for " << r.gpu.id << ": give --price)\n";
    t << "  energy           " << fmt::number(in.energyPerMillionOutputTokensJoules / 3.6e6) << " kWh per million output tokens, all the GPU time (prefills too), at "
      << r.gpu.tdpWatts << " W TDP per GPU\n";
    t << "  bound            decode's GEMMs are "
      << (in.decodeGemmsComputeBoundFrom > 0
              ? QStringLiteral("compute-bound from %1 sequences%2")
                    .arg(fmt::count(static_cast<std::int64_t>(in.decodeGemmsComputeBoundFrom)),
                         in.decodeGemmsComputeBoundFrom > static_cast<double>(in.maxConcurrency)
                             ? (in.maxConcurrency < in.kvMaxConcurrency ? QStringLiteral(", past the %1 max_num_seqs runs")
                                                                        : QStringLiteral(", past the %1 the KV cache holds"))
                                   .arg(fmt::count(in.maxConcurrency))
                             : QString())
              : QStringLiteral("memory-bound at any concurrency"))
      << "; its attention reads each sequence's cache and stays memory-bound\n";
    t << "\nServing curve (concurrency: output tokens/s, TPOT, TTFT)\n";
    for (const ServingPoint &p : in.curve)
        t << "  " << pad(fmt::count(p.concurrency), 8) << pad(fmt::number(p.outputTokensPerS) + QStringLiteral(" tok/s"), 18)
          << pad(fmt::duration(p.tpotSeconds), 12) << fmt::duration(p.ttftSeconds) << (p.concurrency == in.concurrency ? "   <- chosen" : "") << '\n';
}

} // namespace napkin

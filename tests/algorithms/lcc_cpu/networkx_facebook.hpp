#pragma once
// networkx 3 figures for datasets/data/facebook_combined.txt.gz (ego-Facebook, 4039 vertices,
// 88234 edges), computed outside this repository with
//   G = nx.read_edgelist(gzip.open(path, "rt"), nodetype=int)
//   nx.average_clustering(G), nx.clustering(G)[v]
// Shared by the CPU and GPU local clustering tests.
#include <cstdint>
#include <utility>

namespace wg::test {

inline constexpr double kFacebookAverageClustering = 0.6055467186200876;
/// (the file's vertex id, networkx's clustering of it).
inline constexpr std::pair<std::uint32_t, double> kFacebookClustering[] = {
    {0, 0.04196165314587463},     {1, 0.41911764705882354},     {107, 0.049038479165520905},
    {348, 0.12303684976633725},   {414, 0.1351803200382135},    {686, 0.11562826313957536},
    {1684, 0.044774546986936364}, {3437, 0.032230414314509376}, {3980, 0.0853302162478083},
};

}  // namespace wg::test

// SPDX-License-Identifier: MIT
// Numeric gap: the metrics of facts sheet §7 computed by hand, real ETDumps compared with
// themselves and with the bundled program's expected outputs, and Inspector tables (the §7
// DataFrame columns, as pandas writes or prints them and tabulate draws them) mapped onto real
// programs. Perturbed runs written by the project's ETDump writer are in tst_debugfixtures.
//
// Why one file: one test class for the gap of one program's runs, whatever its source (two
// ETDumps, the bundled expected outputs, an Inspector table); the Inspector tables quoted at the top
// (kMlpCsv, kStackCsv) and the sample loaders serve most cases.
#include "tests/common/graphchecks.h"
#include "tests/common/require.h"
#include "tests/common/testsupport.h"

#include "core/debug/debugheat.h"
#include "core/debug/inspectortable.h"
#include "core/debug/numericgap.h"
#include "core/document/document.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace etscope::core;
using namespace etscope::test;

Q_DECLARE_METATYPE(std::string)

namespace {

std::string generated(const std::string& relative)
{
    return etscope::test::samplePath("generated/" + relative);
}

Result<ETDump> dumpWithBuffer(const std::string& relative)
{
    auto dump = readETDumpFile(generated(relative));
    if (!dump)
        return dump;
    if (auto error = attachDebugBufferOrDefault(dump.value(), {}))
        return *error;
    return dump;
}

Result<Document> program(const std::string& relative)
{
    return openDocument(etscope::test::samplePath(relative));
}

const Graph& graphOf(const Document& document)
{
    return *document.methods.front().graph;
}

// An Inspector table for spike_conv.pte / quantized.pte, as `df.to_csv()` writes it: index
// column, tuples and lists printed by Python, tensors by torch (multi-line prints quoted).
const char* const kConvCsv
    = R"csv(,aot_debug_handle,aot_ops,aot_intermediate_output,runtime_ops,runtime_debug_handle,runtime_intermediate_output,gap,stacktraces
0,"(1,)",['aten_convolution_default'],"tensor([[1., 2.],
        [3., 4.]])",['DELEGATE_CALL'],"(1,)","[tensor([[9., 9.]]), tensor([[1., 2.],
        [3., 5.]])]",[0.25],{'aten_convolution_default': None}
1,"(99,)",['aten_relu_default'],tensor([1.]),['DELEGATE_CALL'],"(99,)",tensor([1.]),[0.0],{}
)csv";

// One Inspector table for stress_mlp.pte as people paste it: no debug handles (placed by runtime
// op order), the columns of executorch#16316. Printed by pandas 1.5 and tabulate 0.8 from the
// same DataFrame; trailing spaces trimmed as pasting often does.
// The reference: `df.to_csv(index=False)`.
const char* const kMlpCsv = R"tbl(idx,aot_ops,aot_intermediate_output,runtime_ops,runtime_intermediate_output,gap
0,['aten_select_copy_int'],"tensor([ 0.1250, -2.5000,  3.0000])",['native_call_select_copy.int_out'],"tensor([ 0.1250, -2.5000,  3.5000])",[0.08333333333333333]
1,['aten_select_copy_int_1'],tensor(2.5000),['native_call_select_copy.int_out'],tensor(2.),[0.25]
2,"['aten_mul_tensor', 'aten_mul_tensor_1']","[tensor(2.5000), tensor(-1.)]",['DELEGATE_CALL'],"[tensor(2.5000), tensor(-1.)]",[0.0]
3,['aten_clamp_default'],tensor(3),['native_call_clamp.out'],tensor(3),[0.0]
4,"['aten_add_tensor', 'aten_linear_default']","tensor([[1., 2.],
        [3., 4.]])",['DELEGATE_CALL'],"tensor([[1., 2.],
        [3., 5.]])",[0.25]
)tbl";

// `df.to_string()`: right-aligned under right-aligned names, the index first, lists printed
// without quotes, a tensor's line break as "\n".
const char* const kMlpToString
    = R"tbl(   idx                                 aot_ops                aot_intermediate_output                        runtime_ops            runtime_intermediate_output                    gap
0    0                  [aten_select_copy_int]    tensor([ 0.1250, -2.5000,  3.0000])  [native_call_select_copy.int_out]    tensor([ 0.1250, -2.5000,  3.5000])  [0.08333333333333333]
1    1                [aten_select_copy_int_1]                         tensor(2.5000)  [native_call_select_copy.int_out]                             tensor(2.)                 [0.25]
2    2    [aten_mul_tensor, aten_mul_tensor_1]          [tensor(2.5000), tensor(-1.)]                    [DELEGATE_CALL]          [tensor(2.5000), tensor(-1.)]                  [0.0]
3    3                    [aten_clamp_default]                              tensor(3)            [native_call_clamp.out]                              tensor(3)                  [0.0]
4    4  [aten_add_tensor, aten_linear_default]  tensor([[1., 2.],\n        [3., 4.]])                    [DELEGATE_CALL]  tensor([[1., 2.],\n        [3., 5.]])                 [0.25]
)tbl";

// `df.to_string(index=False)`: one space between some cells.
const char* const kMlpToStringNoIndex
    = R"tbl( idx                                aot_ops               aot_intermediate_output                       runtime_ops           runtime_intermediate_output                   gap
   0                 [aten_select_copy_int]   tensor([ 0.1250, -2.5000,  3.0000]) [native_call_select_copy.int_out]   tensor([ 0.1250, -2.5000,  3.5000]) [0.08333333333333333]
   1               [aten_select_copy_int_1]                        tensor(2.5000) [native_call_select_copy.int_out]                            tensor(2.)                [0.25]
   2   [aten_mul_tensor, aten_mul_tensor_1]         [tensor(2.5000), tensor(-1.)]                   [DELEGATE_CALL]         [tensor(2.5000), tensor(-1.)]                 [0.0]
   3                   [aten_clamp_default]                             tensor(3)           [native_call_clamp.out]                             tensor(3)                 [0.0]
   4 [aten_add_tensor, aten_linear_default] tensor([[1., 2.],\n        [3., 4.]])                   [DELEGATE_CALL] tensor([[1., 2.],\n        [3., 5.]])                [0.25]
)tbl";

// `print(df)` in an 80-column notebook: three blocks of columns (display.expand_frame_repr).
const char* const kMlpPrint = "   idx                                 aot_ops  \\\n"
                              "0    0                  [aten_select_copy_int]\n"
                              "1    1                [aten_select_copy_int_1]\n"
                              "2    2    [aten_mul_tensor, aten_mul_tensor_1]\n"
                              "3    3                    [aten_clamp_default]\n"
                              "4    4  [aten_add_tensor, aten_linear_default]\n"
                              "\n"
                              "                 aot_intermediate_output                        runtime_ops  \\\n"
                              "0    tensor([ 0.1250, -2.5000,  3.0000])  [native_call_select_copy.int_out]\n"
                              "1                         tensor(2.5000)  [native_call_select_copy.int_out]\n"
                              "2          [tensor(2.5000), tensor(-1.)]                    [DELEGATE_CALL]\n"
                              "3                              tensor(3)            [native_call_clamp.out]\n"
                              "4  tensor([[1., 2.],\\n        [3., 4.]])                    [DELEGATE_CALL]\n"
                              "\n"
                              "             runtime_intermediate_output                    gap\n"
                              "0    tensor([ 0.1250, -2.5000,  3.5000])  [0.08333333333333333]\n"
                              "1                             tensor(2.)                 [0.25]\n"
                              "2          [tensor(2.5000), tensor(-1.)]                  [0.0]\n"
                              "3                              tensor(3)                  [0.0]\n"
                              "4  tensor([[1., 2.],\\n        [3., 5.]])                 [0.25]\n";

// tabulate(df, headers="keys", tablefmt="fancy_grid", showindex=False): a multi-line cell
// continues on the next line of its row.
const char* const kMlpFancyGrid
    = R"tbl(╒═══════╤════════════════════════════════════════════╤═════════════════════════════════════╤═════════════════════════════════════╤═════════════════════════════════════╤═══════════════════════╕
│   idx │ aot_ops                                    │ aot_intermediate_output             │ runtime_ops                         │ runtime_intermediate_output         │ gap                   │
╞═══════╪════════════════════════════════════════════╪═════════════════════════════════════╪═════════════════════════════════════╪═════════════════════════════════════╪═══════════════════════╡
│     0 │ ['aten_select_copy_int']                   │ tensor([ 0.1250, -2.5000,  3.0000]) │ ['native_call_select_copy.int_out'] │ tensor([ 0.1250, -2.5000,  3.5000]) │ [0.08333333333333333] │
├───────┼────────────────────────────────────────────┼─────────────────────────────────────┼─────────────────────────────────────┼─────────────────────────────────────┼───────────────────────┤
│     1 │ ['aten_select_copy_int_1']                 │ tensor(2.5000)                      │ ['native_call_select_copy.int_out'] │ tensor(2.)                          │ [0.25]                │
├───────┼────────────────────────────────────────────┼─────────────────────────────────────┼─────────────────────────────────────┼─────────────────────────────────────┼───────────────────────┤
│     2 │ ['aten_mul_tensor', 'aten_mul_tensor_1']   │ [tensor(2.5000), tensor(-1.)]       │ ['DELEGATE_CALL']                   │ [tensor(2.5000), tensor(-1.)]       │ [0.0]                 │
├───────┼────────────────────────────────────────────┼─────────────────────────────────────┼─────────────────────────────────────┼─────────────────────────────────────┼───────────────────────┤
│     3 │ ['aten_clamp_default']                     │ tensor(3)                           │ ['native_call_clamp.out']           │ tensor(3)                           │ [0.0]                 │
├───────┼────────────────────────────────────────────┼─────────────────────────────────────┼─────────────────────────────────────┼─────────────────────────────────────┼───────────────────────┤
│     4 │ ['aten_add_tensor', 'aten_linear_default'] │ tensor([[1., 2.],                   │ ['DELEGATE_CALL']                   │ tensor([[1., 2.],                   │ [0.25]                │
│       │                                            │         [3., 4.]])                  │                                     │         [3., 5.]])                  │                       │
╘═══════╧════════════════════════════════════════════╧═════════════════════════════════════╧═════════════════════════════════════╧═════════════════════════════════════╧═══════════════════════╛
)tbl";

// tablefmt="github" (no multi-line support: the tensor's line break is left raw).
const char* const kMlpGithub
    = R"tbl(|   idx | aot_ops                                    | aot_intermediate_output              | runtime_ops                         | runtime_intermediate_output          | gap                   |
|-------|--------------------------------------------|--------------------------------------|-------------------------------------|--------------------------------------|-----------------------|
|     0 | ['aten_select_copy_int']                   | tensor([ 0.1250, -2.5000,  3.0000])  | ['native_call_select_copy.int_out'] | tensor([ 0.1250, -2.5000,  3.5000])  | [0.08333333333333333] |
|     1 | ['aten_select_copy_int_1']                 | tensor(2.5000)                       | ['native_call_select_copy.int_out'] | tensor(2.)                           | [0.25]                |
|     2 | ['aten_mul_tensor', 'aten_mul_tensor_1']   | [tensor(2.5000), tensor(-1.)]        | ['DELEGATE_CALL']                   | [tensor(2.5000), tensor(-1.)]        | [0.0]                 |
|     3 | ['aten_clamp_default']                     | tensor(3)                            | ['native_call_clamp.out']           | tensor(3)                            | [0.0]                 |
|     4 | ['aten_add_tensor', 'aten_linear_default'] | tensor([[1., 2.],
        [3., 4.]]) | ['DELEGATE_CALL']                   | tensor([[1., 2.],
        [3., 5.]]) | [0.25]                |
)tbl";

// tablefmt="plain": left-aligned text, right-aligned numbers, no borders.
const char* const kMlpPlain
    = R"tbl(  idx  aot_ops                                     aot_intermediate_output              runtime_ops                          runtime_intermediate_output          gap
    0  ['aten_select_copy_int']                    tensor([ 0.1250, -2.5000,  3.0000])  ['native_call_select_copy.int_out']  tensor([ 0.1250, -2.5000,  3.5000])  [0.08333333333333333]
    1  ['aten_select_copy_int_1']                  tensor(2.5000)                       ['native_call_select_copy.int_out']  tensor(2.)                           [0.25]
    2  ['aten_mul_tensor', 'aten_mul_tensor_1']    [tensor(2.5000), tensor(-1.)]        ['DELEGATE_CALL']                    [tensor(2.5000), tensor(-1.)]        [0.0]
    3  ['aten_clamp_default']                      tensor(3)                            ['native_call_clamp.out']            tensor(3)                            [0.0]
    4  ['aten_add_tensor', 'aten_linear_default']  tensor([[1., 2.],                    ['DELEGATE_CALL']                    tensor([[1., 2.],                    [0.25]
                                                           [3., 4.]])                                                                [3., 5.]])
)tbl";

// tablefmt="grid".
const char* const kMlpGrid
    = R"tbl(+-------+--------------------------------------------+-------------------------------------+-------------------------------------+-------------------------------------+-----------------------+
|   idx | aot_ops                                    | aot_intermediate_output             | runtime_ops                         | runtime_intermediate_output         | gap                   |
+=======+============================================+=====================================+=====================================+=====================================+=======================+
|     0 | ['aten_select_copy_int']                   | tensor([ 0.1250, -2.5000,  3.0000]) | ['native_call_select_copy.int_out'] | tensor([ 0.1250, -2.5000,  3.5000]) | [0.08333333333333333] |
+-------+--------------------------------------------+-------------------------------------+-------------------------------------+-------------------------------------+-----------------------+
|     1 | ['aten_select_copy_int_1']                 | tensor(2.5000)                      | ['native_call_select_copy.int_out'] | tensor(2.)                          | [0.25]                |
+-------+--------------------------------------------+-------------------------------------+-------------------------------------+-------------------------------------+-----------------------+
|     2 | ['aten_mul_tensor', 'aten_mul_tensor_1']   | [tensor(2.5000), tensor(-1.)]       | ['DELEGATE_CALL']                   | [tensor(2.5000), tensor(-1.)]       | [0.0]                 |
+-------+--------------------------------------------+-------------------------------------+-------------------------------------+-------------------------------------+-----------------------+
|     3 | ['aten_clamp_default']                     | tensor(3)                           | ['native_call_clamp.out']           | tensor(3)                           | [0.0]                 |
+-------+--------------------------------------------+-------------------------------------+-------------------------------------+-------------------------------------+-----------------------+
|     4 | ['aten_add_tensor', 'aten_linear_default'] | tensor([[1., 2.],                   | ['DELEGATE_CALL']                   | tensor([[1., 2.],                   | [0.25]                |
|       |                                            |         [3., 4.]])                  |                                     |         [3., 5.]])                  |                       |
+-------+--------------------------------------------+-------------------------------------+-------------------------------------+-------------------------------------+-----------------------+
)tbl";

// tablefmt="psql".
const char* const kMlpPsql
    = R"tbl(+-------+--------------------------------------------+-------------------------------------+-------------------------------------+-------------------------------------+-----------------------+
|   idx | aot_ops                                    | aot_intermediate_output             | runtime_ops                         | runtime_intermediate_output         | gap                   |
|-------+--------------------------------------------+-------------------------------------+-------------------------------------+-------------------------------------+-----------------------|
|     0 | ['aten_select_copy_int']                   | tensor([ 0.1250, -2.5000,  3.0000]) | ['native_call_select_copy.int_out'] | tensor([ 0.1250, -2.5000,  3.5000]) | [0.08333333333333333] |
|     1 | ['aten_select_copy_int_1']                 | tensor(2.5000)                      | ['native_call_select_copy.int_out'] | tensor(2.)                          | [0.25]                |
|     2 | ['aten_mul_tensor', 'aten_mul_tensor_1']   | [tensor(2.5000), tensor(-1.)]       | ['DELEGATE_CALL']                   | [tensor(2.5000), tensor(-1.)]       | [0.0]                 |
|     3 | ['aten_clamp_default']                     | tensor(3)                           | ['native_call_clamp.out']           | tensor(3)                           | [0.0]                 |
|     4 | ['aten_add_tensor', 'aten_linear_default'] | tensor([[1., 2.],                   | ['DELEGATE_CALL']                   | tensor([[1., 2.],                   | [0.25]                |
|       |                                            |         [3., 4.]])                  |                                     |         [3., 5.]])                  |                       |
+-------+--------------------------------------------+-------------------------------------+-------------------------------------+-------------------------------------+-----------------------+
)tbl";

// tablefmt="pipe" (what df.to_markdown() writes).
const char* const kMlpPipe
    = R"tbl(|   idx | aot_ops                                    | aot_intermediate_output             | runtime_ops                         | runtime_intermediate_output         | gap                   |
|------:|:-------------------------------------------|:------------------------------------|:------------------------------------|:------------------------------------|:----------------------|
|     0 | ['aten_select_copy_int']                   | tensor([ 0.1250, -2.5000,  3.0000]) | ['native_call_select_copy.int_out'] | tensor([ 0.1250, -2.5000,  3.5000]) | [0.08333333333333333] |
|     1 | ['aten_select_copy_int_1']                 | tensor(2.5000)                      | ['native_call_select_copy.int_out'] | tensor(2.)                          | [0.25]                |
|     2 | ['aten_mul_tensor', 'aten_mul_tensor_1']   | [tensor(2.5000), tensor(-1.)]       | ['DELEGATE_CALL']                   | [tensor(2.5000), tensor(-1.)]       | [0.0]                 |
|     3 | ['aten_clamp_default']                     | tensor(3)                           | ['native_call_clamp.out']           | tensor(3)                           | [0.0]                 |
|     4 | ['aten_add_tensor', 'aten_linear_default'] | tensor([[1., 2.],                   | ['DELEGATE_CALL']                   | tensor([[1., 2.],                   | [0.25]                |
|       |                                            |         [3., 4.]])                  |                                     |         [3., 5.]])                  |                       |
)tbl";

// tablefmt="simple".
const char* const kMlpSimple
    = R"tbl(  idx  aot_ops                                     aot_intermediate_output              runtime_ops                          runtime_intermediate_output          gap
-----  ------------------------------------------  -----------------------------------  -----------------------------------  -----------------------------------  ---------------------
    0  ['aten_select_copy_int']                    tensor([ 0.1250, -2.5000,  3.0000])  ['native_call_select_copy.int_out']  tensor([ 0.1250, -2.5000,  3.5000])  [0.08333333333333333]
    1  ['aten_select_copy_int_1']                  tensor(2.5000)                       ['native_call_select_copy.int_out']  tensor(2.)                           [0.25]
    2  ['aten_mul_tensor', 'aten_mul_tensor_1']    [tensor(2.5000), tensor(-1.)]        ['DELEGATE_CALL']                    [tensor(2.5000), tensor(-1.)]        [0.0]
    3  ['aten_clamp_default']                      tensor(3)                            ['native_call_clamp.out']            tensor(3)                            [0.0]
    4  ['aten_add_tensor', 'aten_linear_default']  tensor([[1., 2.],                    ['DELEGATE_CALL']                    tensor([[1., 2.],                    [0.25]
                                                           [3., 4.]])                                                                [3., 5.]])
)tbl";

// A newer Inspector's table (stacktraces) indexed by idx, `print(df)` in an 80-column notebook:
// the index named on a line of its own in each block, stack traces cut at display.max_colwidth.
const char* const kMlpNamedIndexStacktraces
    = "                                    aot_ops  \\\n"
      "idx\n"
      "0                    [aten_select_copy_int]\n"
      "1                  [aten_select_copy_int_1]\n"
      "2      [aten_mul_tensor, aten_mul_tensor_1]\n"
      "3                      [aten_clamp_default]\n"
      "4    [aten_add_tensor, aten_linear_default]\n"
      "\n"
      "                   aot_intermediate_output                        runtime_ops  \\\n"
      "idx\n"
      "0      tensor([ 0.1250, -2.5000,  3.0000])  [native_call_select_copy.int_out]\n"
      "1                           tensor(2.5000)  [native_call_select_copy.int_out]\n"
      "2            [tensor(2.5000), tensor(-1.)]                    [DELEGATE_CALL]\n"
      "3                                tensor(3)            [native_call_clamp.out]\n"
      "4    tensor([[1., 2.],\\n        [3., 4.]])                    [DELEGATE_CALL]\n"
      "\n"
      "               runtime_intermediate_output                    gap  \\\n"
      "idx\n"
      "0      tensor([ 0.1250, -2.5000,  3.5000])  [0.08333333333333333]\n"
      "1                               tensor(2.)                 [0.25]\n"
      "2            [tensor(2.5000), tensor(-1.)]                  [0.0]\n"
      "3                                tensor(3)                  [0.0]\n"
      "4    tensor([[1., 2.],\\n        [3., 5.]])                 [0.25]\n"
      "\n"
      "                                           stacktraces\n"
      "idx\n"
      "0    {'aten_select_copy_int': 'File \"mlp.py\", line ...\n"
      "1                                                 None\n"
      "2                                                 None\n"
      "3                                                   {}\n"
      "4    {'aten_linear_default': 'File \"mlp.py\", line 1...\n";

// display.max_rows = 4: pandas prints a row of "..." for the rows it leaves out.
const char* const kMlpMaxRows
    = "    idx                                 aot_ops                aot_intermediate_output  \\\n"
      "0     0                  [aten_select_copy_int]    tensor([ 0.1250, -2.5000,  3.0000])\n"
      "1     1                [aten_select_copy_int_1]                         tensor(2.5000)\n"
      "..  ...                                     ...                                    ...\n"
      "3     3                    [aten_clamp_default]                              tensor(3)\n"
      "4     4  [aten_add_tensor, aten_linear_default]  tensor([[1., 2.],\\n        [3., 4.]])\n"
      "\n"
      "                          runtime_ops            runtime_intermediate_output  \\\n"
      "0   [native_call_select_copy.int_out]    tensor([ 0.1250, -2.5000,  3.5000])\n"
      "1   [native_call_select_copy.int_out]                             tensor(2.)\n"
      "..                                ...                                    ...\n"
      "3             [native_call_clamp.out]                              tensor(3)\n"
      "4                     [DELEGATE_CALL]  tensor([[1., 2.],\\n        [3., 5.]])\n"
      "\n"
      "                      gap\n"
      "0   [0.08333333333333333]\n"
      "1                  [0.25]\n"
      "..                    ...\n"
      "3                   [0.0]\n"
      "4                  [0.25]\n"
      "\n"
      "[5 rows x 6 columns]\n";

// display.max_columns = 4: a column of "..." for the columns left out.
const char* const kMlpMaxColumns
    = "   idx                                 aot_ops  ...            runtime_intermediate_output  \\\n"
      "0    0                  [aten_select_copy_int]  ...    tensor([ 0.1250, -2.5000,  3.5000])\n"
      "1    1                [aten_select_copy_int_1]  ...                             tensor(2.)\n"
      "2    2    [aten_mul_tensor, aten_mul_tensor_1]  ...          [tensor(2.5000), tensor(-1.)]\n"
      "3    3                    [aten_clamp_default]  ...                              tensor(3)\n"
      "4    4  [aten_add_tensor, aten_linear_default]  ...  tensor([[1., 2.],\\n        [3., 5.]])\n"
      "\n"
      "                     gap\n"
      "0  [0.08333333333333333]\n"
      "1                 [0.25]\n"
      "2                  [0.0]\n"
      "3                  [0.0]\n"
      "4                 [0.25]\n"
      "\n"
      "[5 rows x 6 columns]\n";

// display.max_colwidth = 24: long cells cut with "...".
const char* const kMlpMaxColwidth
    = R"tbl(   idx                  aot_ops  aot_intermediate_output              runtime_ops runtime_intermediate_output                    gap
0    0   [aten_select_copy_int]  tensor([ 0.1250, -2....  [native_call_select_...  tensor([ 0.1250, -2....     [0.08333333333333333]
1    1  [aten_select_copy_in...           tensor(2.5000)  [native_call_select_...               tensor(2.)                    [0.25]
2    2  [aten_mul_tensor, at...  [tensor(2.5000), ten...          [DELEGATE_CALL]  [tensor(2.5000), ten...                     [0.0]
3    3     [aten_clamp_default]                tensor(3)  [native_call_clamp.out]                tensor(3)                     [0.0]
4    4  [aten_add_tensor, at...  tensor([[1., 2.],\n ...          [DELEGATE_CALL]  tensor([[1., 2.],\n ...                    [0.25]
)tbl";

// The table as people post it in issues (pytorch/executorch#16316): a Markdown table with the
// columns idx, aot_ops, aot_intermediate_output, runtime_ops, runtime_intermediate_output, gap,
// no debug handles, op names without quotes, tensors shortened by hand with "…" and the gap a
// bare number.
const char* const kIssueMarkdown
    = R"tbl(| idx | aot_ops                              | aot_intermediate_output                | runtime_ops                       | runtime_intermediate_output            | gap                    |
|-----|--------------------------------------|----------------------------------------|-----------------------------------|----------------------------------------|------------------------|
| 0   | [aten_select_copy_int]               | [tensor(0.1250, -2.5000, 3.0000, …)]   | [native_call_select_copy.int_out] | [tensor(0.1250, -2.5000, 3.5000, …)]   | 0.08333333333333333    |
| 1   | [aten_mul_tensor, aten_mul_tensor_1] | [[tensor(2.5000), tensor(-1.), …]]     | [DELEGATE_CALL]                   | [[tensor(2.5000), tensor(-1.), …]]     | 3.2825094945114346e-15 |
| 2   | [aten_clamp_default]                 | tensor(3)                              | [native_call_clamp.out]           | tensor(3)                              | 0.0                    |
)tbl";

// A stack trace of two lines in the dict a newer Inspector keeps per row: to_csv and tabulate
// write it as repr() does ("\n" escaped); pandas' to_string prints the dict's string raw, its
// second line starting at the left edge.
const char* const kStackCsv = R"tbl(,runtime_ops,gap,stacktraces
0,['DELEGATE_CALL'],[0.5],"{'aten_linear_default': 'File ""mlp.py"", line 14, in forward\n    return self.fc(x)'}"
1,['native_call_clamp.out'],[0.0],
)tbl";

const char* const kStackToString
    = R"tbl(               runtime_ops    gap                                                                          stacktraces
0          [DELEGATE_CALL]  [0.5]  {'aten_linear_default': 'File "mlp.py", line 14, in forward
    return self.fc(x)'}
1  [native_call_clamp.out]  [0.0]                                                                                 None
)tbl";

const char* const kStackFancyGrid
    = R"tbl(╒════╤═══════════════════════════╤═══════╤══════════════════════════════════════════════════════════════════════════════════════╕
│    │ runtime_ops               │ gap   │ stacktraces                                                                          │
╞════╪═══════════════════════════╪═══════╪══════════════════════════════════════════════════════════════════════════════════════╡
│  0 │ ['DELEGATE_CALL']         │ [0.5] │ {'aten_linear_default': 'File "mlp.py", line 14, in forward\n    return self.fc(x)'} │
├────┼───────────────────────────┼───────┼──────────────────────────────────────────────────────────────────────────────────────┤
│  1 │ ['native_call_clamp.out'] │ [0.0] │                                                                                      │
╘════╧═══════════════════════════╧═══════╧══════════════════════════════════════════════════════════════════════════════════════╛
)tbl";

/// The first difference between two imported rows ("" when they hold the same).
std::string rowDifference(const InspectorRow& a, const InspectorRow& b)
{
    const auto sameTensors = [](const std::vector<PrintedTensor>& x, const std::vector<PrintedTensor>& y) {
        if (x.size() != y.size())
            return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (x[i].values != y[i].values || x[i].shape != y[i].shape || x[i].complete != y[i].complete)
                return false;
        return true;
    };
    if (a.aotDebugHandle != b.aotDebugHandle)
        return "aot_debug_handle";
    if (a.aotOps != b.aotOps)
        return "aot_ops";
    if (!sameTensors(a.aotOutput, b.aotOutput))
        return "aot_intermediate_output";
    if (a.runtimeOps != b.runtimeOps)
        return "runtime_ops";
    if (a.runtimeDebugHandle != b.runtimeDebugHandle)
        return "runtime_debug_handle";
    if (!sameTensors(a.runtimeOutput, b.runtimeOutput))
        return "runtime_intermediate_output";
    if (a.gap != b.gap)
        return "gap";
    if (a.stackTraces != b.stackTraces)
        return "stacktraces";
    return {};
}

} // namespace

class TestNumericGap : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { ETSCOPE_REQUIRE_SAMPLES(); }

    void metricsByHand()
    {
        // a (reference) = [1, 2, 3, 4], b (run) = [1, 2, 3, 5]; a − b = [0, 0, 0, −1].
        // MSE = 1/4 = 0.25; L1 = Σ|a−b| = 1; max |a−b| = 1;
        // SNR = 10·log10(mean(a²)/MSE) = 10·log10(7.5/0.25) = 10·log10(30) = 14.7712125472 dB;
        // cosine = a·b/(|a||b|) = 34/√(30·39) = 0.99399908855.
        const std::vector<double> a { 1, 2, 3, 4 };
        const std::vector<double> b { 1, 2, 3, 5 };
        const GapMetrics m = computeGapMetrics(a, b);
        QCOMPARE(m.mse, 0.25);
        QCOMPARE(m.l1, 1.0);
        QCOMPARE(m.maxAbs, 1.0);
        QVERIFY(std::abs(m.snr - 14.7712125472) < 1e-9);
        QVERIFY(std::abs(m.cosine - 0.99399908855) < 1e-10);
        QCOMPARE(m.value(GapMetric::L1), 1.0);
        QCOMPARE(m.value(GapMetric::Snr), m.snr);
    }

    void metricEdgeCases()
    {
        // NaN counts as 0 on both sides (§7): [NaN, 1] vs [0, 1] are identical → SNR +inf.
        const GapMetrics same = computeGapMetrics(std::vector<double> { NAN, 1 }, std::vector<double> { 0, 1 });
        QCOMPARE(same.mse, 0.0);
        QVERIFY(std::isinf(same.snr) && same.snr > 0);
        QCOMPARE(same.cosine, 1.0);
        // Identical zero vectors (ReLU outputs, masks) are a perfect match, not 0/0: cosine 1 and
        // SNR +inf, so a graph coloured by either does not paint them as the worst nodes.
        const GapMetrics zero = computeGapMetrics(std::vector<double> { 0, 0 }, std::vector<double> { 0, 0 });
        QCOMPARE(zero.cosine, 1.0);
        QVERIFY(std::isinf(zero.snr) && zero.snr > 0);
        // One side all zeros: nothing in common (cosine 0), and SNR −inf when the reference is.
        const GapMetrics silent = computeGapMetrics(std::vector<double> { 0, 0 }, std::vector<double> { 1, 0 });
        QCOMPARE(silent.cosine, 0.0);
        QVERIFY(std::isinf(silent.snr) && silent.snr < 0);
        // L1 is a sum, not a mean: 3 elements off by 2 → 6.
        QCOMPARE(computeGapMetrics(std::vector<double> { 1, 1, 1 }, std::vector<double> { 3, 3, 3 }).l1, 6.0);
        // inf on both sides: inf − inf is NaN, and every distance says so (max |a−b| too, which
        // std::max would have turned into 0, "no difference").
        const GapMetrics infinite
            = computeGapMetrics(std::vector<double> { INFINITY, 1 }, std::vector<double> { INFINITY, 1 });
        QVERIFY(std::isnan(infinite.mse));
        QVERIFY(std::isnan(infinite.maxAbs));
        QVERIFY(std::isnan(infinite.snr));
    }

    void nonFiniteCells()
    {
        // +inf (identical), -inf (silent reference) and NaN (inf in the values) print as inf,
        // -inf and nan, never "-nan" (the sign bit x86 gives inf − inf); JSON gets null plus
        // the non_finite column that tells them apart.
        GapReport report;
        report.mode = "etdump";
        const std::vector<std::pair<std::vector<double>, std::vector<double>>> pairs { { { 1, 2 }, { 1, 2 } },
            { { 0, 0 }, { 1, 0 } }, { { INFINITY, 1 }, { INFINITY, 1 } } };
        for (const auto& [reference, run] : pairs) {
            GapRow row;
            row.label = "x";
            row.metrics = computeGapMetrics(reference, run);
            report.rows.push_back(row);
        }
        const Table table = gapTable(report, GapMetric::Snr);
        QCOMPARE(table.columns[7], std::string("snr"));
        QCOMPARE(cellText(table.rows[0][7]), std::string("inf"));
        QCOMPARE(cellText(table.rows[1][7]), std::string("-inf"));
        QCOMPARE(cellText(table.rows[2][7]), std::string("nan"));
        const Table all = gapTable(report);
        for (const TableFormat format :
            { TableFormat::Text, TableFormat::Csv, TableFormat::Tsv, TableFormat::Markdown, TableFormat::Html }) {
            const QString text = QString::fromStdString(renderTable(all, format));
            QVERIFY2(!text.contains(QStringLiteral("-nan")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("nan")), qPrintable(text));
            QVERIFY(text.contains(QStringLiteral("-inf")));
        }
        QVERIFY(std::find(all.columns.begin(), all.columns.end(), "non_finite") == all.columns.end());
        const Table json = gapTable(report, std::nullopt, true);
        QCOMPARE(json.columns.back(), std::string("non_finite"));
        QCOMPARE(std::get<std::string>(json.rows[0].back()), std::string("snr=inf"));
        QCOMPARE(std::get<std::string>(json.rows[1].back()), std::string("snr=-inf"));
        QCOMPARE(std::get<std::string>(json.rows[2].back()),
            std::string("mse=nan, l1=nan, snr=nan, cosine=nan, maxabs=nan"));
        const auto parsed = nlohmann::json::parse(renderTable(json, TableFormat::Json));
        QVERIFY(parsed.at("rows")[0].at("snr").is_null());
        QCOMPARE(parsed.at("rows")[0].at("mse").get<double>(), 0.0);
        QCOMPARE(parsed.at("rows")[1].at("non_finite").get<std::string>(), std::string("snr=-inf"));
    }

    void metricNames()
    {
        QCOMPARE(parseGapMetric("SNR"), std::optional<GapMetric>(GapMetric::Snr));
        QCOMPARE(parseGapMetric("cosine_similarity"), std::optional<GapMetric>(GapMetric::Cosine));
        QCOMPARE(parseGapMetric("maxabs"), std::optional<GapMetric>(GapMetric::MaxAbs));
        QVERIFY(!parseGapMetric("rmse"));
        QVERIFY(!gapHigherIsWorse(GapMetric::Snr));
        QVERIFY(gapHigherIsWorse(GapMetric::L1));
    }

    void sameRunHasNoGap()
    {
        // stress_mlp: 12 KernelCalls logging one out each; the DelegateCall at 6 has 4 inputs and
        // 2 outputs, the one at 13 4 inputs and 1 output (§4.3: all args are logged, outputs
        // last); then the program output. 24 debug events → 12 + 2 + 1 + 1 = 16 compared values.
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/stress_mlp.pte"));
        ETSCOPE_TAKE(const ETDump run, dumpWithBuffer("stress_mlp/stress_mlp.intermediates.etdp"));
        const EventMapper mapper(graphOf(document));
        const GapReport report = compareETDumps(run, run, mapper);
        QVERIFY(report.warnings.empty());
        QCOMPARE(report.rows.size(), std::size_t(16));
        int delegateRows = 0;
        for (const GapRow& row : report.rows) {
            QVERIFY2(row.matched, row.label.c_str());
            QVERIFY2(row.metrics, row.problem.c_str());
            QCOMPARE(row.metrics->mse, 0.0);
            QCOMPARE(row.metrics->maxAbs, 0.0);
            if (row.runtimeOp == "DELEGATE_CALL")
                ++delegateRows;
        }
        QCOMPARE(delegateRows, 3);
        // The delegate at 13 compares its output [32, 256], not its [32, 256]/[1, 256] inputs.
        const GapRow& last = report.rows[14];
        QCOMPARE(last.instruction, InstructionId(13));
        QCOMPARE(last.shape, (std::vector<std::int64_t> { 32, 256 }));
        QCOMPARE(report.rows.back().label, std::string("output 0"));
        QCOMPARE(graphOf(document).node(report.rows.back().origin.top).kind, NodeKind::Output);
        // Rows are in execution order.
        for (std::size_t r = 1; r + 1 < report.rows.size(); ++r)
            QVERIFY(report.rows[r - 1].instruction.value <= report.rows[r].instruction.value);
    }

    void gapHeat()
    {
        // As heat for the UI: five metric columns, SNR and cosine better when higher, +inf SNR
        // (identical values) kept; an Inspector import adds its own gap column.
        ETSCOPE_TAKE(const Document document, program("executorch/add.pte"));
        ETSCOPE_TAKE(const ETDump run, dumpWithBuffer("add/add.intermediates.etdp"));
        const HeatTable heat = gapHeatTable(compareETDumps(run, run, EventMapper(graphOf(document))));
        QCOMPARE(heat.columns.size(), std::size_t(5));
        QVERIFY(heat.columns[0].higherIsWorse);
        QVERIFY(!heat.columns[2].higherIsWorse);
        QCOMPARE(heat.columns[2].unit, std::string("dB"));
        QCOMPARE(heat.rows.size(), std::size_t(2));
        QCOMPARE(heat.rows[0].label, std::string("aten::add.out"));
        QVERIFY(heat.rows[0].origin.top.valid());
        QCOMPARE(*heat.rows[0].values[0], 0.0);
        QVERIFY(std::isinf(*heat.rows[0].values[2]));
        auto rows = parseInspectorTable("aot_debug_handle,gap\n\"(7,)\",[0.5]\n", "t.csv");
        QVERIFY(rows.ok());
        const HeatTable imported
            = gapHeatTable(mapInspectorTable(*rows, EventMapper(graphOf(document)), GapMetric::L1, "t.csv"));
        QCOMPARE(imported.columns.size(), std::size_t(6));
        QCOMPARE(imported.columns[5].name, std::string("inspector l1"));
        QCOMPARE(*imported.rows[0].values[5], 0.5);
        QVERIFY(!imported.rows[0].values[0]);
        QVERIFY(!imported.rows[0].origin.top.valid());
    }

    void blocksOfOneFile()
    {
        // add.intermediates.x3: each of the three runs computed ones + ones = 2.0.
        ETSCOPE_TAKE(const Document document, program("executorch/add.pte"));
        ETSCOPE_TAKE(const ETDump run, dumpWithBuffer("add/add.intermediates.x3.etdp"));
        const EventMapper mapper(graphOf(document));
        GapOptions options;
        options.runBlock = 2;
        options.referenceBlock = 0;
        const GapReport report = compareETDumps(run, run, mapper, options);
        QCOMPARE(report.rows.size(), std::size_t(2));
        QCOMPARE(report.rows[0].label, std::string("aten::add.out"));
        QCOMPARE(report.rows[0].metrics->mse, 0.0);
        QVERIFY(std::isinf(report.rows[0].metrics->snr));
        options.runBlock = 3;
        const GapReport none = compareETDumps(run, run, mapper, options);
        QVERIFY(none.rows.empty());
        QCOMPARE(none.warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(none.warnings[0].message).contains(QStringLiteral("no Execute block 3")));
    }

    void blocksAndTestCasesAreNamed()
    {
        ETSCOPE_TAKE(const Document document, program("executorch/add.pte"));
        ETSCOPE_TAKE(const ETDump run, dumpWithBuffer("add/add.intermediates.x3.etdp"));
        GapOptions options;
        options.runBlock = 1;
        options.referenceBlock = 2;
        const GapReport report = compareETDumps(run, run, EventMapper(graphOf(document)), options);
        QCOMPARE(report.runBlock, std::size_t(1));
        QCOMPARE(report.runBlocks, std::size_t(3));
        QCOMPARE(report.referenceBlock, std::size_t(2));
        QCOMPARE(report.run, run.path() + " (Execute block 1 of 3)");
        QCOMPARE(report.reference, run.path() + " (Execute block 2 of 3)");
        QVERIFY(report.warnings.empty());
        const Table table = gapTable(report);
        QCOMPARE(table.notes[0], "reference: " + run.path() + " (Execute block 2 of 3)");
        QCOMPARE(table.notes[1], "run: " + run.path() + " (Execute block 1 of 3)");
        // A block the file lacks says how many it has.
        options.runBlock = 5;
        const GapReport missing = compareETDumps(run, run, EventMapper(graphOf(document)), options);
        QCOMPARE(missing.warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(missing.warnings[0].message)
                    .contains(QStringLiteral("no Execute block 5 (it has 3")));

        ETSCOPE_TAKE(const Document bundledProgram, program("executorch/bundled_program.bpte"));
        ETSCOPE_TAKE(const ETDump outputs, dumpWithBuffer("bundled_program/bundled_program.outputs.etdp"));
        GapOptions testCase;
        testCase.testCase = 7;
        auto bundled = compareWithBundled(
            outputs, *bundledProgram.bundled, *bundledProgram.program, EventMapper(graphOf(bundledProgram)), testCase);
        QVERIFY(bundled.ok());
        QCOMPARE(bundled->testCase, std::optional<int>(7));
        QCOMPARE(bundled->testCases, std::size_t(10));
        QVERIFY(QString::fromStdString(bundled->reference)
                    .endsWith(QStringLiteral("(test case 7 of 10: expected outputs)")));
        QCOMPARE(bundled->run, outputs.path() + " (Execute block 0 of 1)");
    }

    void foreignRunIsWarnedAbout()
    {
        // The audit's reproducer: add's run against stress_mlp's own, on stress_mlp.pte.
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/stress_mlp.pte"));
        ETSCOPE_TAKE(const ETDump run, dumpWithBuffer("add/add.intermediates.etdp"));
        ETSCOPE_TAKE(const ETDump reference, dumpWithBuffer("stress_mlp/stress_mlp.intermediates.etdp"));
        const GapReport report = compareETDumps(run, reference, EventMapper(graphOf(document)));
        QCOMPARE(report.warnings.size(), std::size_t(4)); // summary + 3 examples, all about the run
        for (const Warning& warning : report.warnings)
            QVERIFY2(warning.message.rfind(run.path() + " (Execute block 0 of 1): ", 0) == 0, warning.message.c_str());
        QVERIFY(QString::fromStdString(report.warnings[0].message).contains(QStringLiteral("3 of")));
        QVERIFY(QString::fromStdString(report.warnings[1].message).contains(QStringLiteral("native_call_add.out")));
        // The run's [1] meets the reference's zero-dim [] and [32, 256] values: "shapes differ".
        QCOMPARE(report.rows.size(), std::size_t(2));
        QVERIFY2(report.rows[0].problem.rfind("shapes differ: run [1], reference []", 0) == 0,
            report.rows[0].problem.c_str());
        QVERIFY(report.rows[0].metrics); // as many elements: still compared
        QVERIFY2(
            report.rows[1].problem.rfind("shapes differ: run [1], reference [32, 256] (1 vs 8192 elements)", 0) == 0,
            report.rows[1].problem.c_str());
        QVERIFY(!report.rows[1].metrics);
        // Its values are not placed on stress_mlp's nodes: add's run profiles instruction 0 as
        // native_call_add.out, and stress_mlp's instruction 0 is another operator (the name
        // check placeNamedEvent makes for events, made for the values logged beside them).
        QVERIFY2(!report.rows[0].matched, report.rows[0].label.c_str());
        QVERIFY2(report.rows[0].label.find("profiled as native_call_add.out") != std::string::npos,
            report.rows[0].label.c_str());
        QVERIFY(!report.rows[0].origin.top.valid());
        // The table carries the warnings in its notes (CLI notes, every format that has notes).
        const Table table = gapTable(report);
        QCOMPARE(table.notes.size(), std::size_t(2 + 4));
        QCOMPARE(table.notes[2], "warning: " + report.warnings[0].message);
        // The other way round the reference is the stranger.
        const GapReport swapped = compareETDumps(reference, run, EventMapper(graphOf(document)));
        QVERIFY(!swapped.warnings.empty());
        QVERIFY(swapped.warnings[0].message.rfind(run.path(), 0) == 0);
    }

    void debugBufferThatIsAnETDump()
    {
        // Tensors "read" from an ETDump file: the comparison still runs, and says why it is nonsense.
        ETSCOPE_TAKE(const Document document, program("executorch/add.pte"));
        ETSCOPE_TAKE(ETDump run, dumpWithBuffer("add/add.intermediates.etdp"));
        ETSCOPE_TAKE(ETDump reference, dumpWithBuffer("add/add.intermediates.x3.etdp"));
        QVERIFY(!attachDebugBuffer(run, generated("add/add.intermediates.etdp")));
        const GapReport report = compareETDumps(run, reference, EventMapper(graphOf(document)));
        QCOMPARE(report.warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(report.warnings[0].message)
                    .startsWith(QString::fromStdString(generated("add/add.intermediates.etdp"))
                        + QStringLiteral(": the debug buffer of ")));
        QVERIFY(QString::fromStdString(report.warnings[0].message).contains(QStringLiteral("starts like an ETDump")));
    }

    void profileOnlyRunsSayWhy()
    {
        ETSCOPE_TAKE(const Document document, program("executorch/add.pte"));
        ETSCOPE_TAKE(const ETDump profile, dumpWithBuffer("add/add.profile.etdp"));
        const GapReport report = compareETDumps(profile, profile, EventMapper(graphOf(document)));
        QVERIFY(report.rows.empty());
        QCOMPARE(report.warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(report.warnings.front().message).contains(QStringLiteral("no debug values")));
    }

    void missingBufferBecomesAProblem()
    {
        ETSCOPE_TAKE(const Document document, program("executorch/add.pte"));
        auto bare = readETDumpFile(generated("add/add.intermediates.etdp"));
        QVERIFY(bare.ok());
        const GapReport report = compareETDumps(*bare, *bare, EventMapper(graphOf(document)));
        QCOMPARE(report.rows.size(), std::size_t(2));
        QVERIFY(!report.rows[0].metrics);
        QVERIFY(QString::fromStdString(report.rows[0].problem).contains(QStringLiteral("no debug buffer")));
    }

    void bundledExpectedOutputs()
    {
        // The bundled program's test case 0 expects [[2, 2], [2, 2]] (INT); the runner verified
        // the run ("Model verified successfully", README), so every distance is 0.
        ETSCOPE_TAKE(const Document document, program("executorch/bundled_program.bpte"));
        QVERIFY(document.bundled);
        ETSCOPE_TAKE(const ETDump run, dumpWithBuffer("bundled_program/bundled_program.outputs.etdp"));
        const EventMapper mapper(graphOf(document));
        auto report = compareWithBundled(run, *document.bundled, *document.program, mapper);
        QVERIFY2(report.ok(), report.ok() ? "" : report.error().message().c_str());
        QCOMPARE(report->mode, std::string("bundled"));
        QCOMPARE(report->rows.size(), std::size_t(1));
        const GapRow& row = report->rows.front();
        QCOMPARE(row.dtype, std::string("INT"));
        QCOMPARE(row.shape, (std::vector<std::int64_t> { 2, 2 }));
        QVERIFY(row.metrics);
        QCOMPARE(row.metrics->mse, 0.0);
        QCOMPARE(row.metrics->cosine, 1.0);
        QVERIFY(row.matched);
        GapOptions options;
        options.testCase = 10; // the suite has 10 cases: 0…9
        auto missing = compareWithBundled(run, *document.bundled, *document.program, mapper, options);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, Error::Code::Usage);
        QVERIFY(QString::fromStdString(missing.error().reason).contains(QStringLiteral("has 10")));
    }

    void gapTableColumns()
    {
        ETSCOPE_TAKE(const Document document, program("executorch/add.pte"));
        ETSCOPE_TAKE(const ETDump run, dumpWithBuffer("add/add.intermediates.etdp"));
        const GapReport report = compareETDumps(run, run, EventMapper(graphOf(document)));
        const Table all = gapTable(report);
        QCOMPARE(all.columns,
            (std::vector<std::string> { "#", "node", "runtime_op", "instruction", "output", "shape", "dtype", "mse",
                "l1", "snr", "cosine", "maxabs", "aot_ops", "problem" }));
        QCOMPARE(all.rows.size(), std::size_t(2));
        const Table one = gapTable(report, GapMetric::Cosine);
        QCOMPARE(one.columns[7], std::string("cosine"));
        QCOMPARE(one.columns.size(), std::size_t(10));
        QCOMPARE(std::get<double>(one.rows[0][7]), 1.0);
    }

    void printedTensors()
    {
        auto t = parsePrintedTensors("tensor([[1., 2.],\n        [3., -4.5e-1]])");
        QCOMPARE(t.size(), std::size_t(1));
        QCOMPARE(t[0].values, (std::vector<double> { 1, 2, 3, -0.45 }));
        QCOMPARE(t[0].shape, (std::vector<std::int64_t> { 2, 2 }));
        QVERIFY(t[0].complete);
        t = parsePrintedTensors("tensor(2.5000)");
        QCOMPARE(t[0].values, std::vector<double> { 2.5 });
        QVERIFY(t[0].shape.empty());
        t = parsePrintedTensors("[tensor([1, 2], dtype=torch.int32), tensor([True, False])]");
        QCOMPARE(t.size(), std::size_t(2));
        QCOMPARE(t[1].values, (std::vector<double> { 1, 0 }));
        t = parsePrintedTensors("tensor([0.0000, 1.0000, 2.0000,  ..., 7.0000, 8.0000, 9.0000])");
        QVERIFY(!t[0].complete);
        t = parsePrintedTensors("tensor([nan, inf, -inf])");
        QVERIFY(std::isnan(t[0].values[0]) && std::isinf(t[0].values[1]) && t[0].values[2] < 0);
        t = parsePrintedTensors("[[1.0, 2.0], [3.0, 4.0]]");
        QCOMPARE(t[0].shape, (std::vector<std::int64_t> { 2, 2 }));
        QVERIFY(parsePrintedTensors("None").empty());
    }

    void inspectorCsvOnXnnpackHandles()
    {
        // Row 0's handle 1 is carried by spike_conv's XNNConv2d (its blob stores the handle);
        // the runtime logged two values, the one shaped like the AOT value is compared:
        // [1,2,3,4] vs [1,2,3,5] → MSE 0.25 (the table's own gap says 0.25 too).
        // Row 1's handle 99 and the second DELEGATE_CALL exist nowhere: unmatched, reported.
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/spike_conv.pte"));
        const EventMapper mapper(graphOf(document));
        auto rows = parseInspectorTable(kConvCsv, "gap.csv");
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().message().c_str());
        QCOMPARE(rows->rows.size(), std::size_t(2));
        QCOMPARE(rows->rows[0].runtimeOutput.size(), std::size_t(2));
        QCOMPARE(rows->rows[0].aotOps, std::vector<std::string> { "aten_convolution_default" });
        const GapReport report = mapInspectorTable(*rows, mapper, GapMetric::Mse, "gap.csv");
        QCOMPARE(report.rows.size(), std::size_t(2));
        const GapRow& conv = report.rows[0];
        QVERIFY(conv.matched);
        QVERIFY(conv.origin.inner.valid());
        QCOMPARE(
            graphOf(document).node(conv.origin.top).subgraph->node(conv.origin.inner).opType, std::string("XNNConv2d"));
        QCOMPARE(conv.imported, std::vector<double> { 0.25 });
        QVERIFY(conv.metrics);
        QCOMPARE(conv.metrics->mse, 0.25);
        QCOMPARE(conv.instruction, InstructionId(0));
        QVERIFY(!report.rows[1].matched);
        QCOMPARE(report.warnings.size(), std::size_t(1));
        const Table table = gapTable(report);
        QCOMPARE(table.columns[12], std::string("inspector_gap"));
    }

    void inspectorSharedHandles()
    {
        // quantized.pte: Convert (handle 2), FullyConnected and Convert (both handle 3). A shared
        // handle means the node executed last (§7 step 2).
        ETSCOPE_TAKE(const Document document, program("executorch-numpy-runtime/quantized.pte"));
        const EventMapper mapper(graphOf(document));
        auto rows = parseInspectorTable(",aot_debug_handle,runtime_debug_handle,runtime_ops,gap\n"
                                        "0,\"(2,)\",\"(2,)\",['DELEGATE_CALL'],[0.0]\n"
                                        "1,\"(3,)\",\"(3,)\",['DELEGATE_CALL'],[0.5]\n",
            "q.csv");
        QVERIFY(rows.ok());
        const GapReport report = mapInspectorTable(*rows, mapper, GapMetric::Snr, "q.csv");
        const Graph& inner = *graphOf(document).node(report.rows[0].origin.top).subgraph;
        QCOMPARE(inner.node(report.rows[0].origin.inner).opType, std::string("XNNConvert"));
        QCOMPARE(inner.node(report.rows[1].origin.inner).opType, std::string("XNNConvert"));
        QVERIFY(report.rows[0].origin.inner != report.rows[1].origin.inner);
        QVERIFY(!report.rows[0].metrics); // no tensors in this table
        QCOMPARE(report.importedMetric, std::optional<GapMetric>(GapMetric::Snr));
    }

    void inspectorOpOrder()
    {
        // Without handles on the graph, the k-th native_call_<op> row meets the k-th node of op.
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/stress_mlp.pte"));
        const EventMapper mapper(graphOf(document));
        auto rows = parseInspectorTable("runtime_ops\taot_debug_handle\tgap\n"
                                        "['native_call_select_copy.int_out']\t(50,)\t[1.0]\n"
                                        "['native_call_select_copy.int_out']\t(51,)\t[2.0]\n"
                                        "['native_call_clamp.out']\t(52,)\t[3.0]\n",
            "order.tsv");
        QVERIFY(rows.ok());
        const GapReport report = mapInspectorTable(*rows, mapper, GapMetric::L1, "order.tsv");
        QCOMPARE(report.rows[0].instruction, InstructionId(2));
        QCOMPARE(report.rows[1].instruction, InstructionId(3));
        QCOMPARE(report.rows[2].instruction, InstructionId(9));
        QCOMPARE(report.rows[2].label, std::string("aten::clamp.out"));
        QVERIFY(report.warnings.empty());
    }

    void inspectorJsonOrients_data()
    {
        QTest::addColumn<std::string>("text");
        // One row, in the pandas to_json orients: handle 1 → spike_conv's XNNConv2d; the printed
        // values [1, 2] vs [1, 2.5] give MSE (0 + 0.25)/2 = 0.125.
        QTest::addRow("records") << std::string(
            R"js([{"aot_debug_handle":[1],"aot_ops":["aten_convolution_default"],"aot_intermediate_output":[1.0,2.0],)js"
            R"js("runtime_ops":["DELEGATE_CALL"],"runtime_debug_handle":[1],"runtime_intermediate_output":[1.0,2.5],"gap":[0.125]}])js");
        QTest::addRow("columns") << std::string(
            R"js({"aot_debug_handle":{"0":[1]},"aot_intermediate_output":{"0":"tensor([1., 2.])"},)js"
            R"js("runtime_debug_handle":{"0":[1]},"runtime_intermediate_output":{"0":"tensor([1.0, 2.5])"},"gap":{"0":[0.125]}})js");
        QTest::addRow("index") << std::string(
            R"js({"0":{"aot_debug_handle":[1],"aot_intermediate_output":[1,2],"runtime_debug_handle":[1],)js"
            R"js("runtime_intermediate_output":[1,2.5],"gap":[0.125]}})js");
        QTest::addRow("split") << std::string(
            R"js({"columns":["aot_debug_handle","aot_intermediate_output","runtime_debug_handle","runtime_intermediate_output","gap"],)js"
            R"js("index":[0],"data":[[[1],[1,2],[1],[1,2.5],[0.125]]]})js");
        QTest::addRow("table") << std::string(
            R"js({"schema":{"fields":[]},"data":[{"index":0,"aot_debug_handle":[1],"aot_intermediate_output":[1,2],)js"
            R"js("runtime_debug_handle":[1],"runtime_intermediate_output":[1,2.5],"gap":[0.125]}]})js");
    }

    void inspectorJsonOrients()
    {
        QFETCH(std::string, text);
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/spike_conv.pte"));
        auto rows = parseInspectorTable(text, "gap.json");
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().message().c_str());
        QCOMPARE(rows->rows.size(), std::size_t(1));
        const GapReport report = mapInspectorTable(*rows, EventMapper(graphOf(document)), GapMetric::Mse, "gap.json");
        QVERIFY(report.rows[0].origin.inner.valid());
        QVERIFY(report.rows[0].metrics);
        QCOMPARE(report.rows[0].metrics->mse, 0.125);
        QCOMPARE(report.rows[0].imported, std::vector<double> { 0.125 });
    }

    /// The columns orient keys rows by the DataFrame index. Numeric keys come in by value ("10"
    /// after "2"); the sort used to call a numeric and a non-numeric key equal, which is not a
    /// strict weak ordering (issue 27 #16): mixed keys now give numeric keys by value, then the
    /// others in the order they came.
    void inspectorColumnsOrientMixedKeys()
    {
        const std::string text = R"js({"aot_debug_handle":{"10":[10],"b":[21],"2":[2],"a":[20],"1":[1]},)js"
                                 R"js("gap":{"10":[0],"b":[0],"2":[0],"a":[0],"1":[0]}})js";
        auto rows = parseInspectorTable(text, "gap.json");
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().message().c_str());
        std::vector<std::int64_t> order;
        for (const InspectorRow& row : rows->rows)
            order.push_back(row.aotDebugHandle.at(0).value);
        QCOMPARE(order, (std::vector<std::int64_t> { 1, 2, 10, 21, 20 }));
    }

    void inspectorHostileCells()
    {
        // Deep nesting and absurd numbers in cells: parsed, or the row skipped with a warning,
        // never a crash. A tensor print nested beyond any real tensor is malformed.
        std::string deep(100000, '[');
        deep += std::string(100000, ']');
        auto rows = parseInspectorTable("aot_debug_handle,gap,aot_intermediate_output\n\"(1e300, -5)\",\"" + deep
                + "\",\"\"\n\"(2,)\",[0],\"" + deep + "\"\n",
            "deep.csv");
        QVERIFY(rows.ok());
        QCOMPARE(rows->rows.size(), std::size_t(1));
        QCOMPARE(rows->rows[0].aotDebugHandle, handles({ -5 }));
        QVERIFY(rows->rows[0].gap.empty());
        QCOMPARE(rows->warnings.size(), std::size_t(1));
        QVERIFY2(rows->warnings[0].message.starts_with(
                     "deep.csv: row 1: aot_intermediate_output '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[…' is not a "
                     "complete tensor print; row skipped"),
            rows->warnings[0].message.c_str());
        // Nesting within the JSON limit: a handle list is read by its numbers, without recursion.
        const std::string nested
            = "[{\"aot_debug_handle\": " + std::string(500, '[') + "1" + std::string(500, ']') + ", \"gap\": [1e300]}]";
        auto json = parseInspectorTable(nested, "deep.json");
        QVERIFY(json.ok());
        QCOMPARE(json->rows[0].aotDebugHandle, handles({ 1 }));
        QCOMPARE(json->rows[0].gap, std::vector<double> { 1e300 });
        // Nested beyond what any recursive JSON operation can take: refused by name, no crash.
        const std::string hostile
            = "[{\"gap\": [1], \"stacktraces\": " + std::string(60000, '[') + std::string(60000, ']') + "}]";
        auto refused = parseInspectorTable(hostile, "hostile.json");
        QVERIFY(!refused.ok());
        QVERIFY(QString::fromStdString(refused.error().message()).contains(QStringLiteral("hostile.json")));
        QVERIFY(QString::fromStdString(refused.error().message()).contains(QStringLiteral("nested deeper")));
    }

    void inspectorMalformedCellsSkipRows_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<QString>("warning");
        // Cells the walk-through found accepted silently: each row is skipped, named, and the
        // rows around it still load.
        QTest::addRow("unterminated tensor")
            << std::string(
                   "aot_debug_handle,aot_intermediate_output,gap\n1,tensor([1.]),[0]\n2,\"tensor([1., 2.\",[0]\n"
                   "3,tensor(2.),[0]\n")
            << QStringLiteral("row 1: aot_intermediate_output 'tensor([1., 2.' is not a complete tensor print");
        QTest::addRow("handles of names")
            << std::string("runtime_debug_handle\tgap\n(1,)\t[0]\n(a,b)\t[0]\n[3]\t[0]\n")
            << QStringLiteral("row 1: runtime_debug_handle '(a,b)' is not a list of integers");
        QTest::addRow("json records") << std::string(
            R"js([{"aot_debug_handle":[1],"gap":[0]},{"aot_debug_handle":"(x)","gap":[0]},)js"
            R"js({"aot_debug_handle":3,"gap":[0]}])js")
                                      << QStringLiteral("row 1: aot_debug_handle '(x)' is not a list of integers");
    }

    void inspectorMalformedCellsSkipRows()
    {
        QFETCH(std::string, text);
        QFETCH(QString, warning);
        auto table = parseInspectorTable(text, "t");
        QVERIFY2(table.ok(), table.ok() ? "" : table.error().message().c_str());
        QCOMPARE(table->rows.size(), std::size_t(2));
        QCOMPARE(table->warnings.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(table->warnings[0].message),
            QStringLiteral("t: ") + warning + QStringLiteral("; row skipped"));
        // The skip reaches the report's warnings.
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/spike_conv.pte"));
        const GapReport report = mapInspectorTable(*table, EventMapper(graphOf(document)), GapMetric::Mse, "t");
        QCOMPARE(report.rows.size(), std::size_t(2));
        QVERIFY(anyWarning(report.warnings, warning.toStdString()));
    }

    void inspectorTablesStream()
    {
        // Rows reach the sink one by one, in the file's order, for CSV, streamed JSON orients and
        // printed tables (pandas' to_string, a Markdown table).
        std::string csv = "aot_debug_handle,gap\n";
        std::string records = "[";
        std::string printed = "      aot_debug_handle  gap\n";
        std::string github = "| aot_debug_handle | gap |\n|---|---|\n";
        for (int i = 0; i < 1000; ++i) {
            csv += "\"(" + std::to_string(i) + ",)\",[" + std::to_string(i) + "]\n";
            records += std::string(i ? "," : "") + "{\"aot_debug_handle\":[" + std::to_string(i) + "],\"gap\":[0]}";
            const std::string handle = "(" + std::to_string(i) + ",)";
            printed += std::to_string(i) + std::string(22 - std::to_string(i).size() - handle.size(), ' ') + handle
                + "  [0]\n";
            github += "| " + handle + " | [0] |\n";
        }
        records += "]";
        for (const std::string& text : { csv, records, printed, github }) {
            std::vector<std::int64_t> seen;
            auto warnings = readInspectorRows(text, "big", [&](InspectorRow&& row) {
                seen.push_back(row.aotDebugHandle.empty() ? -1 : row.aotDebugHandle.front().value);
            });
            QVERIFY(warnings.ok());
            QCOMPARE(seen.size(), std::size_t(1000));
            QCOMPARE(seen[0], std::int64_t(0));
            QCOMPARE(seen[999], std::int64_t(999));
        }
    }

    void inspectorPrintedTables_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addRow("csv") << std::string(kMlpCsv);
        QTest::addRow("pandas to_string") << std::string(kMlpToString);
        QTest::addRow("pandas to_string index=False") << std::string(kMlpToStringNoIndex);
        QTest::addRow("pandas print wrapped") << std::string(kMlpPrint);
        QTest::addRow("tabulate fancy_grid") << std::string(kMlpFancyGrid);
        QTest::addRow("tabulate github") << std::string(kMlpGithub);
        QTest::addRow("tabulate plain") << std::string(kMlpPlain);
        QTest::addRow("tabulate grid") << std::string(kMlpGrid);
        QTest::addRow("tabulate psql") << std::string(kMlpPsql);
        QTest::addRow("tabulate pipe") << std::string(kMlpPipe);
        QTest::addRow("tabulate simple") << std::string(kMlpSimple);
        // Pasted from Windows, with CRLF line ends.
        std::string crlf;
        for (const char c : std::string_view(kMlpFancyGrid))
            crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        QTest::addRow("fancy_grid CRLF") << crlf;
    }

    void inspectorPrintedTables()
    {
        // One table for stress_mlp.pte, without debug handles (as in executorch#16316), printed
        // the ways people paste it: every print reads into the rows its CSV gives.
        QFETCH(std::string, text);
        auto csv = parseInspectorTable(kMlpCsv, "gap.csv");
        QVERIFY(csv.ok());
        auto rows = parseInspectorTable(text, "gap.txt");
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().message().c_str());
        QVERIFY(rows->warnings.empty());
        QCOMPARE(rows->rows.size(), std::size_t(5));
        for (std::size_t r = 0; r < rows->rows.size(); ++r) {
            const std::string difference = rowDifference(rows->rows[r], csv->rows[r]);
            QVERIFY2(difference.empty(), ("row " + std::to_string(r) + ": " + difference).c_str());
        }
        // What the rows hold, read by hand from the table.
        const InspectorRow& first = rows->rows[0];
        QCOMPARE(first.aotOps, std::vector<std::string> { "aten_select_copy_int" });
        QCOMPARE(first.runtimeOps, std::vector<std::string> { "native_call_select_copy.int_out" });
        QCOMPARE(first.aotOutput.size(), std::size_t(1));
        QCOMPARE(first.aotOutput[0].values, (std::vector<double> { 0.125, -2.5, 3.0 }));
        QCOMPARE(first.runtimeOutput[0].values, (std::vector<double> { 0.125, -2.5, 3.5 }));
        QCOMPARE(first.gap, std::vector<double> { 0.08333333333333333 });
        QVERIFY(first.aotDebugHandle.empty() && first.runtimeDebugHandle.empty());
        QCOMPARE(rows->rows[2].aotOps, (std::vector<std::string> { "aten_mul_tensor", "aten_mul_tensor_1" }));
        QCOMPARE(rows->rows[2].runtimeOutput.size(), std::size_t(2));
        const InspectorRow& last = rows->rows[4];
        QCOMPARE(last.aotOutput[0].shape, (std::vector<std::int64_t> { 2, 2 }));
        QCOMPARE(last.aotOutput[0].values, (std::vector<double> { 1, 2, 3, 4 }));
        QCOMPARE(last.runtimeOutput[0].values, (std::vector<double> { 1, 2, 3, 5 }));
        QCOMPARE(last.gap, std::vector<double> { 0.25 });
        // No handles: placed by runtime op order. select_copy runs at instructions 2 and 3,
        // the delegates at 6 and 13, clamp at 9 (inspectorOpOrder, sameRunHasNoGap).
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/stress_mlp.pte"));
        const GapReport report = mapInspectorTable(*rows, EventMapper(graphOf(document)), GapMetric::Mse, "gap.txt");
        QVERIFY(report.warnings.empty());
        QCOMPARE(report.rows.size(), std::size_t(5));
        const int instructions[] = { 2, 3, 6, 9, 13 };
        for (std::size_t r = 0; r < 5; ++r) {
            QVERIFY(report.rows[r].matched);
            QCOMPARE(report.rows[r].instruction, InstructionId(instructions[r]));
            QVERIFY2(report.rows[r].metrics, report.rows[r].problem.c_str());
        }
        QCOMPARE(graphOf(document).node(report.rows[2].origin.top).kind, NodeKind::Delegate);
        // [0.125, -2.5, 3] vs [0.125, -2.5, 3.5]: MSE 0.25 / 3, as the table's own gap says.
        QVERIFY(std::abs(report.rows[0].metrics->mse - 0.25 / 3) < 1e-15);
        QCOMPARE(report.rows[0].imported, std::vector<double> { 0.08333333333333333 });
        QCOMPARE(report.rows[4].metrics->mse, 0.25);
        QCOMPARE(report.rows[4].shape, (std::vector<std::int64_t> { 2, 2 }));
        QCOMPARE(report.rows[2].metrics->mse, 0.0);
    }

    void inspectorIssueTable()
    {
        // executorch#16316's table: no handles, tensors shortened with "…", the gap a bare
        // number. Rows are placed by runtime op order; the shortened tensors are summaries,
        // never compared, and the table's gap is kept.
        auto rows = parseInspectorTable(kIssueMarkdown, "issue.md");
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().message().c_str());
        QVERIFY(rows->warnings.empty());
        QCOMPARE(rows->rows.size(), std::size_t(3));
        QCOMPARE(rows->rows[1].aotOps, (std::vector<std::string> { "aten_mul_tensor", "aten_mul_tensor_1" }));
        QCOMPARE(rows->rows[1].runtimeOps, std::vector<std::string> { "DELEGATE_CALL" });
        QCOMPARE(rows->rows[1].gap, std::vector<double> { 3.2825094945114346e-15 });
        QCOMPARE(rows->rows[1].aotOutput.size(), std::size_t(2));
        QVERIFY(!rows->rows[0].aotOutput[0].complete);
        QVERIFY(!rows->rows[1].runtimeOutput[1].complete);
        QVERIFY(rows->rows[2].aotOutput[0].complete);
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/stress_mlp.pte"));
        const GapReport report = mapInspectorTable(*rows, EventMapper(graphOf(document)), GapMetric::Mse, "issue.md");
        QVERIFY(report.warnings.empty());
        QCOMPARE(report.rows[0].instruction, InstructionId(2));
        QCOMPARE(report.rows[1].instruction, InstructionId(6));
        QCOMPARE(report.rows[2].instruction, InstructionId(9));
        QCOMPARE(report.rows[2].label, std::string("aten::clamp.out"));
        for (std::size_t r = 0; r < 2; ++r) {
            QVERIFY(!report.rows[r].metrics);
            QVERIFY2(report.rows[r].problem.starts_with("the table printed a summarised tensor"),
                report.rows[r].problem.c_str());
        }
        QCOMPARE(report.rows[1].imported, std::vector<double> { 3.2825094945114346e-15 });
        QVERIFY(report.rows[2].metrics);
        QCOMPARE(report.rows[2].metrics->mse, 0.0);
        // The same table without its op columns can be placed by nothing: refused.
        auto unplaceable = parseInspectorTable("| idx | gap |\n|-----|-----|\n| 0   | 0.5 |\n", "gap-only.md");
        QVERIFY(!unplaceable.ok());
        QVERIFY2(unplaceable.error().reason.find("not a calculate_numeric_gap table") != std::string::npos,
            unplaceable.error().reason.c_str());
    }

    void inspectorPandasSummaries()
    {
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/stress_mlp.pte"));
        // A named index (its own line in each block), four blocks, two stack traces cut short.
        auto named = parseInspectorTable(kMlpNamedIndexStacktraces, "named.txt");
        QVERIFY2(named.ok(), named.ok() ? "" : named.error().message().c_str());
        QCOMPARE(named->rows.size(), std::size_t(5));
        QCOMPARE(named->rows[0].stackTraces, std::string("{'aten_select_copy_int': 'File \"mlp.py\", line ..."));
        QCOMPARE(named->rows[1].stackTraces, std::string()); // None
        QCOMPARE(named->rows[3].stackTraces, std::string("{}"));
        QCOMPARE(named->rows[4].runtimeOutput[0].values, (std::vector<double> { 1, 2, 3, 5 }));
        QCOMPARE(named->warnings.size(), std::size_t(1));
        QCOMPARE(named->warnings[0].message,
            std::string("named.txt: 2 cell(s) end in '...', cut short by pandas (display.max_colwidth): tensors in "
                        "them are not compared"));
        auto csv = parseInspectorTable(kMlpCsv, "gap.csv");
        for (std::size_t r = 0; r < 5; ++r) {
            InspectorRow row = named->rows[r];
            row.stackTraces.clear();
            QVERIFY2(rowDifference(row, csv->rows[r]).empty(), std::to_string(r).c_str());
        }
        // display.max_rows: the row of "..." is skipped with a warning; the others are read.
        auto rows = parseInspectorTable(kMlpMaxRows, "rows.txt");
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().message().c_str());
        QCOMPARE(rows->rows.size(), std::size_t(4));
        QCOMPARE(rows->rows[2].aotOps, std::vector<std::string> { "aten_clamp_default" });
        QCOMPARE(rows->warnings.size(), std::size_t(1));
        QCOMPARE(rows->warnings[0].message,
            std::string("rows.txt: line 4: pandas left out rows where it printed '...' (display.max_rows); only the "
                        "rows shown are read"));
        // display.max_columns: a column named "..." stands for those left out, with a warning;
        // without runtime_ops no row can be placed, which the report says.
        auto columns = parseInspectorTable(kMlpMaxColumns, "columns.txt");
        QVERIFY2(columns.ok(), columns.ok() ? "" : columns.error().message().c_str());
        QCOMPARE(columns->rows.size(), std::size_t(5));
        QCOMPARE(columns->rows[4].gap, std::vector<double> { 0.25 });
        QCOMPARE(columns->rows[4].runtimeOutput[0].values, (std::vector<double> { 1, 2, 3, 5 }));
        QVERIFY(columns->rows[4].runtimeOps.empty());
        QVERIFY(anyWarning(columns->warnings, "pandas left out columns where it printed '...'"));
        const GapReport unplaced
            = mapInspectorTable(*columns, EventMapper(graphOf(document)), GapMetric::Mse, "columns.txt");
        QVERIFY(anyWarning(unplaced.warnings, "5 of 5 Inspector row(s) match no node"));
        // The default 80 columns of a terminal hide the gap itself: refused, saying how to print.
        auto noGap = parseInspectorTable(
            "   idx  ...            runtime_intermediate_output\n0    0  ...    tensor([ 0.1250, -2.5000,  3.5000])\n",
            "hidden.txt");
        QVERIFY(!noGap.ok());
        QCOMPARE(noGap.error().code, Error::Code::Corrupt);
        QVERIFY2(noGap.error().reason.find("display.max_columns") != std::string::npos, noGap.error().reason.c_str());
        // display.max_colwidth: cut tensors are summaries (the row stays, not compared), cut op
        // names are dropped, whole cells are read.
        auto cut = parseInspectorTable(kMlpMaxColwidth, "cut.txt");
        QVERIFY2(cut.ok(), cut.ok() ? "" : cut.error().message().c_str());
        QCOMPARE(cut->rows.size(), std::size_t(5));
        QVERIFY(!cut->rows[0].aotOutput.at(0).complete);
        QVERIFY(cut->rows[1].aotOutput.at(0).complete);
        QCOMPARE(cut->rows[1].aotOutput[0].values, std::vector<double> { 2.5 });
        QVERIFY(cut->rows[0].runtimeOps.empty()); // "[native_call_select_..."
        QCOMPARE(cut->rows[3].runtimeOps, std::vector<std::string> { "native_call_clamp.out" });
        QCOMPARE(cut->rows[0].gap, std::vector<double> { 0.08333333333333333 });
        QVERIFY(anyWarning(cut->warnings, "cell(s) end in '...', cut short by pandas"));
        const GapReport summarised = mapInspectorTable(*cut, EventMapper(graphOf(document)), GapMetric::Mse, "cut.txt");
        QCOMPARE(summarised.rows[4].instruction, InstructionId(13)); // the second DELEGATE_CALL
        QVERIFY(!summarised.rows[4].metrics);
        QVERIFY(summarised.rows[4].problem.starts_with("the table printed a summarised tensor"));
        QCOMPARE(summarised.rows[3].metrics->mse, 0.0);
        // A gap list cut in a number keeps the numbers before it; a cut op list its whole names.
        auto gaps = parseInspectorTable("     runtime_ops            gap\n"
                                        "0  [DELEGATE_...  [0.25, 0.0...\n"
                                        "1  [a, b, na...  [0.5, 0.25...\n",
            "gaps.txt");
        QVERIFY2(gaps.ok(), gaps.ok() ? "" : gaps.error().message().c_str());
        QCOMPARE(gaps->rows[0].gap, std::vector<double> { 0.25 });
        QVERIFY(gaps->rows[0].runtimeOps.empty());
        QCOMPARE(gaps->rows[1].gap, std::vector<double> { 0.5 });
        QCOMPARE(gaps->rows[1].runtimeOps, (std::vector<std::string> { "a", "b" }));
    }

    void inspectorStackTraces_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::string>("trace");
        const std::string escaped
            = "{'aten_linear_default': 'File \"mlp.py\", line 14, in forward\\n    return self.fc(x)'}";
        QTest::addRow("csv") << std::string(kStackCsv) << escaped;
        QTest::addRow("fancy_grid") << std::string(kStackFancyGrid) << escaped;
        QTest::addRow("to_string") << std::string(kStackToString)
                                   << std::string("{'aten_linear_default': 'File \"mlp.py\", line 14, in forward\n"
                                                  "    return self.fc(x)'}");
        // stack_traces, a trace of several lines in a quoted CSV field, and a JSON object cell.
        QTest::addRow("stack_traces csv")
            << std::string("runtime_ops,gap,stack_traces\n['DELEGATE_CALL'],[0.5],\"{'aten_linear_default': 'File "
                           "\"\"mlp.py\"\", line 14, in forward\n    return self.fc(x)'}\"\n"
                           "['native_call_clamp.out'],[0.0],\n")
            << std::string("{'aten_linear_default': 'File \"mlp.py\", line 14, in forward\n    return self.fc(x)'}");
        // (No raw strings here: moc misreads a backslash in one.)
        QTest::addRow("json") << std::string("[{\"runtime_ops\":[\"DELEGATE_CALL\"],\"gap\":[0.5],\"stacktraces\":"
                                             "{\"aten_linear_default\":\"File \\\"mlp.py\\\", line 14\"}},"
                                             "{\"runtime_ops\":[\"native_call_clamp.out\"],\"gap\":[0.0],"
                                             "\"stacktraces\":null}]")
                              << std::string("{\"aten_linear_default\":\"File \\\"mlp.py\\\", line 14\"}");
    }

    void inspectorStackTraces()
    {
        // The stacktraces column (stack_traces too) is kept as printed, its commas, quotes,
        // braces and line breaks breaking nothing around it; None / empty / null is no trace.
        QFETCH(std::string, text);
        QFETCH(std::string, trace);
        auto rows = parseInspectorTable(text, "traces");
        QVERIFY2(rows.ok(), rows.ok() ? "" : rows.error().message().c_str());
        QVERIFY(rows->warnings.empty());
        QCOMPARE(rows->rows.size(), std::size_t(2));
        QCOMPARE(rows->rows[0].stackTraces, trace);
        QCOMPARE(rows->rows[0].runtimeOps, std::vector<std::string> { "DELEGATE_CALL" });
        QCOMPARE(rows->rows[0].gap, std::vector<double> { 0.5 });
        QCOMPARE(rows->rows[1].stackTraces, std::string());
        QCOMPARE(rows->rows[1].runtimeOps, std::vector<std::string> { "native_call_clamp.out" });
        QCOMPARE(rows->rows[1].gap, std::vector<double> { 0.0 });
        ETSCOPE_TAKE(const Document document, program("djl-executorch-engine/stress_mlp.pte"));
        const GapReport report = mapInspectorTable(*rows, EventMapper(graphOf(document)), GapMetric::Mse, "traces");
        QCOMPARE(report.rows[0].instruction, InstructionId(6));
        QCOMPARE(report.rows[1].instruction, InstructionId(9));
    }

    void inspectorBadPrintedTables_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<QString>("reason");
        QTest::addRow("misaligned") << std::string("runtime_ops  gap\n[native_call_add.out,native_call_mul.out][0.5]\n")
                                    << QStringLiteral("line 2: the cells do not line up under the header's names");
        QTest::addRow("cells past the header")
            << std::string("| runtime_ops | gap |\n|---|---|\n| ['a'] | [0.1] | [0.2] |\n")
            << QStringLiteral("line 3: a row of 3 cells under a header of 2");
        QTest::addRow("prose in a bordered table")
            << std::string("| runtime_ops | gap |\n|---|---|\n| ['a'] | [0.1] |\n\nas you can see\n")
            << QStringLiteral("line 5: a line of the bordered table that neither starts with '|' nor is a rule");
        QTest::addRow("wrapped without its last block")
            << std::string("   runtime_ops  \\\n0        [a]   \n1        [b]   \n")
            << QStringLiteral("line 3: the table ends after a block whose header line ends in '\\'");
        QTest::addRow("blocks of different rows")
            << std::string("   runtime_ops  \\\n0        [a]\n1        [b]\n\n     gap\n0  [0.1]\n")
            << QStringLiteral("line 6: block 2 of the wrapped table has 1 rows, the first 2");
        QTest::addRow("blocks of other rows")
            << std::string("   runtime_ops  \\\n0        [a]\n1        [b]\n\n     gap\n0  [0.1]\n7  [0.2]\n")
            << QStringLiteral("line 7: block 2 has row '7' where the first block has '1'");
        QTest::addRow("text after the table")
            << std::string("   runtime_ops    gap\n0        [a]  [0.1]\n\nthe gap is small\n")
            << QStringLiteral("line 4: text after the table");
    }

    void inspectorBadPrintedTables()
    {
        // Malformed printed tables fail with the file, the line and its byte offset; nothing
        // crashes or hangs.
        QFETCH(std::string, text);
        QFETCH(QString, reason);
        auto rows = parseInspectorTable(text, "pasted.txt");
        QVERIFY(!rows.ok());
        QCOMPARE(rows.error().code, Error::Code::Corrupt);
        QCOMPARE(rows.error().file, std::string("pasted.txt"));
        QVERIFY2(QString::fromStdString(rows.error().reason).startsWith(reason), rows.error().reason.c_str());
        QVERIFY(rows.error().offset);
        QVERIFY(*rows.error().offset < text.size());
    }

    void inspectorHostilePrintedTables()
    {
        // A header of thousands of names, brackets never closed, a box-drawing byte cut in
        // half: refused or read, quickly, never a crash.
        std::string wide;
        for (int i = 0; i < 2000; ++i)
            wide += "c" + std::to_string(i) + " ";
        auto tooWide = parseInspectorTable(wide + "gap\n", "wide.txt");
        QVERIFY(!tooWide.ok());
        QCOMPARE(tooWide.error().code, Error::Code::Limit);
        QVERIFY(tooWide.error().reason.find("more than 1024 columns") != std::string::npos);
        const std::string open = "runtime_ops" + std::string(100000, ' ') + "gap\n" + std::string(100000, '[')
            + std::string(13, ' ') + "[0.5]\n";
        auto unclosed = parseInspectorTable(open, "open.txt");
        QVERIFY(unclosed.ok());
        QCOMPARE(unclosed->rows.size(), std::size_t(1));
        QCOMPARE(unclosed->rows[0].gap, std::vector<double> { 0.5 });
        std::string halfBox = kStackFancyGrid;
        halfBox.resize(halfBox.find("│  1") + 2); // "│" is three bytes
        auto cutShort = parseInspectorTable(halfBox, "box.txt");
        QVERIFY(cutShort.ok() || cutShort.error().code == Error::Code::Corrupt);
        // Many lines of one multi-line cell join in linear time.
        std::string tall = "| runtime_ops | gap |\n|---|---|\n| ['x'] | [0, |\n";
        for (int i = 0; i < 100000; ++i)
            tall += "|       | " + std::to_string(i) + ", |\n";
        tall += "|       | 0] |\n";
        auto joined = parseInspectorTable(tall, "tall.md");
        QVERIFY2(joined.ok(), joined.ok() ? "" : joined.error().message().c_str());
        QCOMPARE(joined->rows.size(), std::size_t(1));
        QCOMPARE(joined->rows[0].gap.size(), std::size_t(100002));
        QCOMPARE(joined->rows[0].gap[100000], 99999.0);
    }

    void inspectorBadTables_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<QString>("reason");
        QTest::addRow("no gap column") << std::string("a,b\n1,2\n")
                                       << QStringLiteral("not a calculate_numeric_gap table");
        QTest::addRow("ragged") << std::string("aot_debug_handle,gap\n1,[0.1],extra\n")
                                << QStringLiteral("record 1 has 3 fields");
        QTest::addRow("open quote") << std::string("aot_debug_handle,gap\n\"(1,,[0.1]\n")
                                    << QStringLiteral("never closes");
        QTest::addRow("bad json") << std::string("{\"gap\": ") << QStringLiteral("not valid JSON");
        QTest::addRow("json scalar") << std::string("[1, 2]") << QStringLiteral("not a DataFrame");
        QTest::addRow("empty") << std::string("") << QStringLiteral("no header line");
    }

    void inspectorBadTables()
    {
        QFETCH(std::string, text);
        QFETCH(QString, reason);
        auto rows = parseInspectorTable(text, "bad.csv");
        QVERIFY(!rows.ok());
        QCOMPARE(rows.error().file, std::string("bad.csv"));
        QVERIFY2(QString::fromStdString(rows.error().reason).contains(reason), rows.error().reason.c_str());
    }
};

ETSCOPE_TEST_GUILESS_MAIN(TestNumericGap)
#include "tst_numericgap.moc"

# irregular.gp - part 7 of the suite: per workload and reference, the
# transactions per warp-access at W=32 S=128 before and after reordering
# with index redirection (top), and the net speedup of reordering once and
# running the redirected kernel 1 and N times (bottom).
# Data (dl-bench suite): irregular.dat: index, label, before, after,
# speedup_1, speedup_n.
if (!exists("term")) term = 'pngcairo'
if (!exists("info")) info = ''
if (!exists("nrows")) nrows = 11
if (!exists("iters")) iters = 50
set terminal @term size 1100,800 noenhanced
set output 'irregular.png'
set datafile missing 'NaN'
set style fill solid 0.9 border -1
set grid ytics
set xrange [-0.6:nrows-0.4]
set multiplot title 'Irregular references: reordering with index redirection'
set lmargin 12
set rmargin 3
set origin 0, 0.52
set size 1, 0.44
set tmargin 1
set bmargin 1
set logscale y
set yrange [0.5:*]
set key top left
set ylabel 'transactions per warp-access'
set format x ''
plot 'irregular.dat' using ($1-0.2):3:(0.4) with boxes lc rgb '#D55E00' title 'before', \
     '' using ($1+0.2):4:(0.4) with boxes lc rgb '#0072B2' title 'after'
unset logscale y
set format x
set origin 0, 0.04
set size 1, 0.48
set bmargin 9
set tmargin 1
set yrange [0:*]
set ylabel 'net speedup (plain / reordered)'
set key top left opaque
set xtics rotate by 30 right font ',9'
set label 1 info at screen 0.01, screen 0.02 left font ',9'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 2 lc rgb '#555555'
plot 'irregular.dat' using ($1-0.2):5:(0.4):xtic(2) with boxes lc rgb '#009E73' title '1 iteration', \
     '' using ($1+0.2):6:(0.4) with boxes lc rgb '#CC79A7' title sprintf('%d iterations', iters)
unset multiplot

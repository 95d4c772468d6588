# targets.gp - the copy ratio the report is built around: every figure of
# every copy-ratio target (a point: GB/s of the conversion / GB/s of a
# copy of the same bytes, measured with it) against the target's goal (a
# bar).  Data (dl-bench suite): targets_goals.dat (index, goal, name) and
# targets_ratios.dat (index, ratio).
if (!exists("term")) term = 'pngcairo'
if (!exists("info")) info = ''
if (!exists("ntargets")) ntargets = 5
if (!exists("ymin")) ymin = 0.01
if (!exists("ymax")) ymax = 10
set terminal @term size 900,600 noenhanced
set output 'targets.png'
set title 'Copy ratio of the in-place conversions against their targets'
set label 1 info at screen 0.01, screen 0.03 left font ',9'
set datafile missing 'NaN'
set logscale y
set yrange [ymin:ymax]
set xrange [-0.6:ntargets-0.4]
set ylabel 'GB/s / copy GB/s (log scale)'
set xtics rotate by 20 right font ',9'
set bmargin 8
set lmargin 24
set grid ytics
set key top right
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 2 lc rgb '#555555'
plot 'targets_goals.dat' using 1:2:xtic(3) with points ps 0 notitle, \
     '' using ($1-0.35):2:(0.7):(0) with vectors nohead lw 4 \
         lc rgb '#D55E00' title 'goal (at least)', \
     'targets_ratios.dat' using 1:2 with points pt 6 ps 1.5 lw 2 \
         lc rgb '#0072B2' title 'one measured figure'

# apps.gp - Figure 6 of the DL paper: net speedup of each application
# under dl-run against the iteration count: end to end (plain total_ms /
# dlayout total_ms, solid) and kernel + marshal (plain kernel time /
# (dlayout kernel time + marshal_ms), dashed).
# Data: apps_net.dat (written by dl-bench suite): one block per application
# and target layout, separated by two blank lines, headed by its name;
# columns iterations, end-to-end speedup, kernel + marshal speedup.
if (!exists("term")) term = 'pngcairo'
set terminal @term size 800,480
set output 'apps.png'
set title 'Net speedup including marshaling'
set xlabel 'iterations'
set ylabel 'net speedup (plain / dlayout)'
set yrange [0:*]
set offsets 0, 0, 0.1, 0
set logscale x
set grid
set key outside right
set datafile missing 'NaN'
stats 'apps_net.dat' using 1 nooutput
plot 1 with lines dt 2 lc rgb 'gray' title 'break-even', \
     for [b=0:STATS_blocks-1] 'apps_net.dat' index b using 1:2 \
         with linespoints lw 2 lc b+1 title columnheader(1), \
     for [b=0:STATS_blocks-1] 'apps_net.dat' index b using 1:3 \
         with linespoints dt 2 lc b+1 notitle

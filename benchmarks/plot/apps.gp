# apps.gp - Figure 6 of the DL paper: net speedup of each application
# under dl-run against the iteration count: end to end (plain total_ms /
# dlayout total_ms, solid, with the spread of the repetitions) and kernel +
# marshal (plain kernel time / (dlayout kernel time + marshal_enqueue_ms),
# dashed).
# Data: apps_net.dat (dl-bench suite): one block per application and target
# layout (nblocks of them), separated by two blank lines, headed by its
# name; columns:
# iterations, end-to-end speedup (median, min, max), kernel + marshal.
if (!exists("term")) term = 'pngcairo'
if (!exists("info")) info = ''
if (!exists("palette")) palette = '#0072B2 #D55E00 #009E73 #CC79A7 #56B4E9 #E69F00 #000000'
set terminal @term size 900,520 noenhanced
set output 'apps.png'
set title 'Net speedup including marshaling (above 1: dlayout pays off)'
set label 1 info at screen 0.01, screen 0.03 left font ',9'
set bmargin 5
set xlabel 'iterations (log scale)'
set ylabel 'plain / dlayout (log scale)'
set logscale x
set logscale y
set grid
set key outside right
set datafile missing 'NaN'
if (!exists("nblocks")) nblocks = 1
plot 1 with lines dt 2 lw 2 lc rgb '#999999' title 'break-even', \
     for [b=0:nblocks-1] 'apps_net.dat' index b using 1:2:3:4 \
         with yerrorlines lw 2 pt 7 lc rgb word(palette, b+1) \
         title columnheader(1), \
     for [b=0:nblocks-1] 'apps_net.dat' index b using 1:5 \
         with lines dt 2 lw 2 lc rgb word(palette, b+1) notitle

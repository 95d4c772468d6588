# layout.gp - Figure 1 of the DL paper: speedup over AoS of DA and ASTA(T)
# against the fields per record S.  Data: layout_speedup.dat (written by
# dl-bench suite).  Run as: gnuplot -e "term='pngcairo'" layout.gp
if (!exists("term")) term = 'pngcairo'
set terminal @term size 800,480
set output 'layout.png'
set title 'Layout microbenchmark: speedup over AoS'
set xlabel 'fields per record S'
set ylabel 'time(AoS) / time(layout)'
set logscale x 2
set xtics (1, 2, 3, 4, 5, 8, 12, 16, 20, 32)
set key outside right
set grid
set datafile missing 'NaN'
plot 1 with lines dt 2 lc rgb 'gray' title 'AoS', \
     'layout_speedup.dat' using 1:2 with linespoints lw 2 title 'DA', \
     for [c=3:7] '' using 1:c with linespoints \
         title sprintf('ASTA(%d)', 2**(c-1))
